// Front end: `__asm volatile`, `__asm__ volatile`, `asm __volatile__`, `__asm __volatile`: four
// statements, each with its own finding on its own line.
__device__ unsigned four(unsigned a, unsigned b) {
  unsigned r0, r1, r2, r3;
  __asm volatile("add.u32 %0, %1, %n2;" : "=r"(r0) : "r"(a), "r"(b));  // expect: unsupported-modifier
  __asm__ volatile("add.u32 %0, %1, %2;" : "=r"(r1) : "r"(a));  // expect: operand-index
  asm __volatile__("mov.u32 %0, %pm0;" : "=r"(r2));  // expect: percent-escape
  __asm __volatile("sub.u32 %0, %1, %c2;" : "=r"(r3) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r0 + r1 + r2 + r3;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = four(v[threadIdx.x], 3u);
}
