// Built for sm_75 and sm_80 (CMAKE_CUDA_ARCHITECTURES): redux.sync needs sm_80.
__global__ void warp_min(const unsigned* in, unsigned* out) {
  unsigned r;
  asm volatile("redux.sync.min.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(in[threadIdx.x]));
  out[threadIdx.x] = r;
}
