// Correct: the highest placeholder is one less than the operand count.
// gpu-good: compiles
__device__ unsigned mad_sum(unsigned a, unsigned b, unsigned c, unsigned d) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "mad.lo.u32 t, %1, %2, %3;\n\t"
      "add.u32 %0, t, %4;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(c), "r"(d));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = mad_sum(v[t], 3u, t, 1u);
}
