// Correct: the operand list changes under #if, with its commas inside each branch.
#ifndef MIX_WIDE
#define MIX_WIDE 0
#endif

__device__ unsigned mix(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "xor.b32 t, %1, %2;\n\t"
      "add.u32 %0, t, %3;\n\t"
      "}"
      : "=r"(r)
      : "r"(a),
#if MIX_WIDE
        "r"(b * 3u),
#else
        "r"(b),
#endif
        "r"(c));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = mix(v[t], t, 17u);
}
