// missing-operand-comma, info only: nvcc binds both operands of `"r"(a) "r"(b)` (measured: the
// sum was right); clang and GCC reject the statement. Nothing says clang builds this file, so
// the finding is info and no gate fails on it.
__device__ unsigned add(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a) "r"(b));  // expect: missing-operand-comma(info)
  return r;
}

__global__ void k(unsigned* v) { v[threadIdx.x] = add(v[threadIdx.x], 1u); }
