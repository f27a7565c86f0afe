// Correct: a "+r" operand is live on entry, so it can never share a register with an input;
// writing it before reading another input is safe.
__device__ unsigned horner(unsigned acc, unsigned x, unsigned c1, unsigned c0) {
  asm("mul.lo.u32 %0, %0, %1;\n\t"
      "add.u32 %0, %0, %2;\n\t"
      "mul.lo.u32 %0, %0, %1;\n\t"
      "add.u32 %0, %0, %3;"
      : "+r"(acc)
      : "r"(x), "r"(c1), "r"(c0));
  return acc;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = horner(3u, t, 5u, 7u);
}
