// Front end: `asm` and `__asm` with no qualifier.
__device__ unsigned twice(unsigned a, unsigned b) {
  unsigned r0, r1;
  asm("add.u32 %0, %1, %n2;" : "=r"(r0) : "r"(a), "r"(b));  // expect: unsupported-modifier
  __asm("add.u32 %0, %1, %3;" : "=r"(r1) : "r"(a), "r"(b));  // expect: operand-index
  return r0 + r1;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = twice(v[threadIdx.x], 3u);
}
