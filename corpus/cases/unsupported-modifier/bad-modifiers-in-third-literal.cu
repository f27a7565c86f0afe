// unsupported-modifier: the modifier sits in the third of several concatenated literals; the
// diagnostic points there.
// gpu: nvcc rejects: Asm operand modifier not supported at "%h", try removing modifier or escaping with % (measured)
// gpu-bad: nvcc "Asm operand modifier not supported at \"%h\""
__device__ unsigned blend(unsigned a, unsigned b, unsigned mask) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 keep, other;\n\t"
      "and.b32 keep, %1, %h3;\n\t"  // expect: unsupported-modifier
      "not.b32 other, %3;\n\t"
      "and.b32 other, other, %2;\n\t"
      "or.b32 %0, other, keep;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(mask));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = blend(v[threadIdx.x], 0xffu, 0x0f0fu);
}
