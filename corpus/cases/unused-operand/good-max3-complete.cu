// Correct: the three-way max reads all three arguments.
__device__ int max3(int a, int b, int c) {
  int r;
  asm("{\n\t"
      ".reg .s32 t;\n\t"
      "max.s32 t, %1, %2;\n\t"
      "max.s32 %0, t, %3;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(c));
  return r;
}

__global__ void k(const int* in, int* out) {
  unsigned t = threadIdx.x;
  out[t] = max3(in[t], in[t + 1], in[t + 2]);
}
