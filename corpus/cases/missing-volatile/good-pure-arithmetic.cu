// Correct: a plain asm that only computes from its inputs may be moved, merged or deleted when
// its result is unused; that is what the programmer wants.
__device__ unsigned field(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 f;\n\t"
      "bfe.u32 f, %1, %2, %3;\n\t"
      "xor.b32 %0, f, 0x5bd1e995;\n\t"
      "}"
      : "=r"(r)
      : "r"(x), "r"(pos), "r"(len));
  return r;
}

__device__ unsigned lerp_u32(unsigned a, unsigned b, unsigned t) {
  unsigned r;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(b - a), "r"(t), "r"(a));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = lerp_u32(v[t], 100u, t & 7u) + field(v[t], 4u, 8u);
}
