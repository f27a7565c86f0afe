// Correct: a constraint made of two adjacent string literals ("=" "r") is one operand, not two
// operands with a missing comma.
__device__ unsigned thrice(unsigned a) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, 3;" : "=" "r"(r) : "r"(a));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = thrice(v[threadIdx.x]);
}
