// prefer-cuda-ptx (info): bfind.u32 is cuda::ptx::bfind (CCCL 3.0.0).
__device__ unsigned highest_bit(unsigned x) {
  unsigned r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x));  // expect: prefer-cuda-ptx(info)
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = highest_bit(in[threadIdx.x]);
}
