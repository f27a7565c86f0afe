// Correct: the output written under a predicate is declared "+r", so it keeps its value when the
// predicate is false.
__device__ int flag_if_34(int x) {
  int y = 77;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.eq.s32 p, %1, 34;\n\t"
      "@p mov.s32 %0, 1;\n\t"
      "}"
      : "+r"(y)
      : "r"(x));
  return y;
}

__global__ void k(int* out) {
  out[threadIdx.x] = flag_if_34(static_cast<int>(threadIdx.x));
}
