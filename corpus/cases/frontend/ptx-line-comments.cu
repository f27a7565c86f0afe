// Front end: // and /* */ comments inside the PTX text, each ended by a newline escape where
// needed; the placeholder after them is still mapped to its own line.
__device__ unsigned weighted(unsigned a, unsigned b) {
  unsigned r;
  asm("{  // open a scope\n\t"
      ".reg .u32 t;  /* scratch register */\n\t"
      "mul.lo.u32 t, %1, 3;  // t = 3a\n\t"
      "add.u32 %0, t, %n2;  // r = t + b\n\t"  // expect: unsupported-modifier
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = weighted(v[threadIdx.x], 7u);
}
