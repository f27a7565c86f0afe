// Front end: #if / #elif / #else between the operands inside asm(...), with the commas inside the
// branches. Every branch gives three operands, so %3 is out of range whichever is taken.
#ifndef BLEND_MODE
#define BLEND_MODE 0
#endif

__device__ unsigned blend(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %1, %2;\n\t"
      "add.u32 %0, t, %3;\n\t"  // expect: operand-index
      "}"
      : "=r"(r)
#if BLEND_MODE == 1
      : "r"(a * 2u),
        "r"(b)
#elif BLEND_MODE == 2
      : "r"(a),
        "r"(b * 2u)
#else
      : "r"(a),
        "r"(b)
#endif
  );
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = blend(v[threadIdx.x], threadIdx.x);
}
