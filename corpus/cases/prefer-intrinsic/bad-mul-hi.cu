// prefer-intrinsic (info): mul.hi.u32 is __umulhi().
__device__ unsigned scale_to_range(unsigned hash, unsigned range) {
  unsigned r;
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(hash), "r"(range));  // expect: prefer-intrinsic(info)
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = scale_to_range(in[threadIdx.x], 1000u);
}
