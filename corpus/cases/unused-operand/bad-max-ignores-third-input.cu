// unused-operand: the twin of `bad-info-dependency-token.cu` whose template computes, not
// copies: a three-way max that reads two of its three inputs ignores data it was given.
__device__ int max3(int a, int b, int c) {
  int m;
  asm("max.s32 %0, %1, %2;" : "=r"(m) : "r"(a), "r"(b), "r"(c));  // expect: unused-operand(info)
  return m;
}

__global__ void k(const int* in, int* out) {
  out[threadIdx.x] = max3(in[0], in[1], in[2]);
}
