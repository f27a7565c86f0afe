// Built for sm_75 and sm_80 (setup.py's TORCH_CUDA_ARCH_LIST default).
__global__ void warp_min(const unsigned* in, unsigned* out) {
#if WARP_REDUCE
  unsigned r;
  asm volatile("redux.sync.min.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(in[threadIdx.x]));
  out[threadIdx.x] = r;
#endif
}
