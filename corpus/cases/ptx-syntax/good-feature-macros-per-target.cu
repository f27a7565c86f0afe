// Correct: feature macros the file defines under architecture conditions are evaluated for
// each target. Where HAS_MBARRIER_ARRIVE is defined (sm_80 and later) HAS_CP_ASYNC is too, so
// the `#elif` branch with the form public ptxas rejects (`cp.async.arrive`: "Unknown modifier
// '.arrive'", measured with ptxas 13.0) is compiled for no target, and is not checked.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HAS_CP_ASYNC 1
#endif
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800)
#define HAS_MBARRIER_ARRIVE 1
#endif

__device__ void arrive_after_copies(unsigned bar) {
#if HAS_MBARRIER_ARRIVE
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" : : "r"(bar) : "memory");
#elif HAS_CP_ASYNC
  asm volatile("cp.async.arrive.shared.b64 [%0];" : : "r"(bar) : "memory");
#endif
}
