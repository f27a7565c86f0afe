// unused-operand (info): a three-way max that never looks at its third argument. Info: an
// input the template ignores changes no result by itself (the name says max3, the tool cannot).
__device__ int max3(int a, int b, int c) {
  int r;
  asm("max.s32 %0, %1, %2;"
      : "=r"(r)
      : "r"(a), "r"(b),
        "r"(c));  // expect: unused-operand(info)
  return r;
}

__global__ void k(const int* in, int* out) {
  unsigned t = threadIdx.x;
  out[t] = max3(in[t], in[t + 1], in[t + 2]);
}
