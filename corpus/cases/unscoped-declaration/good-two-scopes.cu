// Correct: two sibling { } blocks in one template, each with its own declarations, and a nested
// block inside the second.
// gpu-good: compiles
__device__ __forceinline__ unsigned two_steps(unsigned a, unsigned b) {
  unsigned r = 0;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %1, %2;\n\t"
      "add.u32 %0, %0, t;\n\t"
      "}\n\t"
      "{\n\t"
      ".reg .u32 t;\n\t"
      "mul.lo.u32 t, %1, %2;\n\t"
      "{\n\t"
      ".reg .pred odd;\n\t"
      "and.b32 t, t, 0xff;\n\t"
      "setp.ne.u32 odd, t, 0;\n\t"
      "@odd add.u32 %0, %0, t;\n\t"
      "}\n\t"
      "}"
      : "+r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = two_steps(in[t], in[t + 1]) + two_steps(in[t + 2], 3u);
}
