// Front end: a statement macro holding an asm, used from device code; the asm takes its context
// from the use site and the finding lands on the #define body line.
#define ADD_SHIFTED(out, a, b)                                  \
  asm("{\n\t"                                                   \
      ".reg .u32 t;\n\t"                                        \
      "mul.lo.u32 t, %2, 16;\n\t"                               \
      "add.u32 %0, %1, %n2;\n\t" /* expect: unsupported-modifier */ \
      "}"                                                       \
      : "=r"(out)                                               \
      : "r"(a), "r"(b))

__device__ unsigned combine(unsigned hi, unsigned lo) {
  unsigned r;
  ADD_SHIFTED(r, lo, hi);
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = combine(v[threadIdx.x], threadIdx.x);
}
