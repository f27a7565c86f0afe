// Correct: operands declared with symbolic names ([r], [a], [hi]) and referenced by number; the
// names count in the numbering. (nvcc 13 does not support %[name] references in device code at
// all: "symbolic operand reference not supported!", so real CUDA code uses the numbers.)
// gpu-good: compiles
__device__ unsigned clamp_add(unsigned a, unsigned b, unsigned hi) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %1, %2;\n\t"
      "min.u32 %0, t, %3;\n\t"
      "}"
      : [r] "=r"(r)
      : [a] "r"(a), "r"(b), [hi] "r"(hi));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = clamp_add(v[t], t, 1000u);
}
