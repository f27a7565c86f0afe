// prefer-intrinsic (info): brev.b32 is __brev(), clz.b32 is __clz().
__device__ unsigned reverse(unsigned x) {
  unsigned r;
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(x));  // expect: prefer-intrinsic(info)
  return r;
}

__device__ unsigned leading_zeros(unsigned x) {
  unsigned r;
  asm("clz.b32 %0, %1;" : "=r"(r) : "r"(x));  // expect: prefer-intrinsic(info)
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = reverse(in[t]) ^ leading_zeros(in[t]);
}
