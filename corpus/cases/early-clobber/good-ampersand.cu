// Correct: outputs written before later reads of inputs are marked early-clobber ("=&r").
__device__ void swap_pair(unsigned a, unsigned b, unsigned& x, unsigned& y) {
  asm("mov.b32 %0, %3;\n\t"
      "mov.b32 %1, %2;"
      : "=&r"(x), "=r"(y)
      : "r"(a), "r"(b));
}

__device__ unsigned mul_add(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %2;\n\t"
      "add.u32 %0, %0, %3;"
      : "=&r"(r)
      : "r"(a), "r"(b), "r"(c));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned x, y;
  swap_pair(v[2 * threadIdx.x], v[2 * threadIdx.x + 1], x, y);
  v[2 * threadIdx.x] = mul_add(x, y, threadIdx.x);
}
