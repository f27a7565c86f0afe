// Correct: the multimem wrappers of cuda::ptx exist for integer and bit types only; the
// floating-point and packed forms have no wrapper, so prefer-cuda-ptx says nothing.
__device__ float sum_across_gpus(const float* mc) {
  float r = 0.0f;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.f32 %0, [%1];"
               : "=f"(r)
               : "l"(__cvta_generic_to_global(mc))
               : "memory");
#endif
  return r;
}

__device__ void add_bf16x2_everywhere(unsigned* mc, unsigned packed) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("multimem.red.relaxed.sys.global.add.bf16x2 [%0], %1;" :: "l"(__cvta_generic_to_global(mc)), "r"(packed) : "memory");
#endif
}

__global__ void k(float* mc, unsigned* mcb, float* out) {
  out[threadIdx.x] = sum_across_gpus(mc + threadIdx.x);
  add_bf16x2_everywhere(mcb + threadIdx.x, 0x3f803f80u);
}
