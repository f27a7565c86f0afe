// Correct: an unguarded inline helper with an sm_80 instruction, called only under a
// __CUDA_ARCH__ >= 800 guard: the helper is emitted only where the guard holds.
// gpu: compiles for sm_75 and sm_90 (measured, nvcc 13.0.88)
// gpu-arch: sm_75 sm_90
// gpu-good: compiles
__device__ __forceinline__ unsigned warp_max(unsigned v) {
  unsigned r;
  asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));  // expect: prefer-intrinsic(info)
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned v = in[threadIdx.x];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  out[threadIdx.x] = warp_max(v);
#else
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
  out[threadIdx.x] = v;
#endif
}
