// write-to-input: an in-place update whose operand was declared as an input instead of "+r".
__device__ unsigned scale_in_place(unsigned acc, unsigned k) {
  asm("mul.lo.u32 %0, %0, %1;" :: "r"(acc), "r"(k));  // expect: write-to-input
  return acc;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = scale_in_place(v[threadIdx.x], 3u);
}
