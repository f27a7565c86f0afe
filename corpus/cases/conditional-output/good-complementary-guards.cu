// Correct: the output is written under @p and under @!p with p unchanged in between: every path
// writes it.
__device__ int sign_flag(int x) {
  int r;
  asm("{\n\t"
      ".reg .pred neg;\n\t"
      "setp.lt.s32 neg, %1, 0;\n\t"
      "@neg mov.s32 %0, -1;\n\t"
      "@!neg mov.s32 %0, 1;\n\t"
      "}"
      : "=r"(r)
      : "r"(x));
  return r;
}

__global__ void k(int* v) {
  v[threadIdx.x] = sign_flag(v[threadIdx.x]);
}
