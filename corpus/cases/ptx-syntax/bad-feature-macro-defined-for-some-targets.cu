// Incorrect: the feature macro is defined for sm_90 and later, and the branch it guards holds
// a form public ptxas rejects (`mbarrier.arrive.expect_copy`: "Not a name of any known
// instruction", measured with ptxas 13.0 for sm_90a). Evaluated per target, the branch is
// compiled for sm_90 on, so it is checked.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HAS_TX_COUNT 1
#endif

__device__ void arrive_expecting(unsigned bar, unsigned bytes) {
#if HAS_TX_COUNT
  asm volatile("mbarrier.arrive.expect_copy.shared.b64 _, [%0], %1;" : : "r"(bar), "r"(bytes) : "memory"); // expect: ptx-syntax
#endif
}
