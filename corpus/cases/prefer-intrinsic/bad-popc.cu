// prefer-intrinsic (info): popc.b32 is __popc().
__device__ unsigned bits_set(unsigned x) {
  unsigned r;
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(x));  // expect: prefer-intrinsic(info)
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = bits_set(in[threadIdx.x]);
}
