// unused-operand (warning): the second max reads `tmp` through both `%0` and `%1` and never
// looks at `c_`: `%1` was meant to be `%2`. One variable read through two operands while an
// input is ignored is a misnumbered template, and the result is wrong (the max of a and b).
__device__ int max3_pos(int a_, int b_, int c_) {
  int tmp;
  asm volatile("max.s16x2 %0, %1, %2;\n" : "=r"(tmp) : "r"(a_), "r"(b_));
  asm volatile("max.s16x2 %0, %0, %1;\n" : "+r"(tmp) : "r"(tmp), "r"(c_));  // expect: unused-operand(warning)
  return tmp;
}

__global__ void k(const int* in, int* out) {
  out[threadIdx.x] = max3_pos(in[0], in[1], in[2]);
}
