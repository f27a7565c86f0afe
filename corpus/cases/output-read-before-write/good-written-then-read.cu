// Correct: the "=r" output is written first and only then read back.
__device__ unsigned square_plus_one(unsigned a) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %1;\n\t"
      "add.u32 %0, %0, 1;"
      : "=r"(r)
      : "r"(a));
  return r;
}

__device__ unsigned keep_nonzero(unsigned prev, unsigned fallback) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred nz;\n\t"
      "setp.ne.u32 nz, %1, 0;\n\t"
      "selp.u32 %0, %1, %2, nz;\n\t"
      "}"
      : "=r"(r)
      : "r"(prev), "r"(fallback));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = square_plus_one(t) + keep_nonzero(v[t], 1u);
}
