// prefer-intrinsic (info): redux.sync.add.u32 is __reduce_add_sync().
__device__ unsigned warp_sum(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, %2;"  // expect: prefer-intrinsic(info)
               : "=r"(r)
               : "r"(v), "r"(0xffffffffu));
  return r;
#else
  return v;
#endif
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = warp_sum(in[threadIdx.x]);
}
