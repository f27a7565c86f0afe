// output-read-before-write: a multiply-add that accumulates into an "=r" output.
__device__ unsigned dot2(unsigned a0, unsigned b0, unsigned a1, unsigned b1) {
  unsigned acc = 0;
  asm("mad.lo.u32 %0, %1, %2, %0;"  // expect: output-read-before-write
      : "=r"(acc)
      : "r"(a0), "r"(b0));
  asm("mad.lo.u32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a1), "r"(b1));
  return acc;
}

__global__ void k(const unsigned* a, const unsigned* b, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = dot2(a[2 * t], b[2 * t], a[2 * t + 1], b[2 * t + 1]);
}
