// Correct: after the first write of %0 the template reads only %0 itself (and immediates): no
// input can be destroyed by sharing its register.
__device__ unsigned scaled_product(unsigned a, unsigned b) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %2;\n\t"
      "add.u32 %0, %0, 1;\n\t"
      "add.u32 %0, %0, %0;"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = scaled_product(v[threadIdx.x], 7u);
}
