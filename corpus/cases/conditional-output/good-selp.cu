// Correct: selp writes the "=r" output on every path.
__device__ int flag_if_34(int x) {
  int y;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.eq.s32 p, %1, 34;\n\t"
      "selp.s32 %0, 1, %2, p;\n\t"
      "}"
      : "=r"(y)
      : "r"(x), "r"(77));
  return y;
}

__global__ void k(int* out) {
  out[threadIdx.x] = flag_if_34(static_cast<int>(threadIdx.x));
}
