// Correct: a project macro defined in this file from __CUDA_ARCH__ guards the sm_90 code.
// gpu-good: compiles
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
#define MYLIB_HAS_SM90 1
#else
#define MYLIB_HAS_SM90 0
#endif

__device__ unsigned elected() {
  unsigned r = (threadIdx.x & 31) == 0;
#if MYLIB_HAS_SM90
  asm volatile("{\n\t"
               ".reg .pred leader;\n\t"
               "elect.sync _|leader, %1;\n\t"
               "selp.u32 %0, 1, 0, leader;\n\t"
               "}"
               : "=r"(r)
               : "r"(0xffffffffu));
#endif
  return r;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = elected();
}
