// Front end: the GCC `inline` qualifier (`asm inline`, `asm volatile inline`, `__asm__ __inline__`)
// must not hide the statement.
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r0, r1, r2;
  asm inline("add.u32 %0, %1, %n2;" : "=r"(r0) : "r"(a), "r"(b));  // expect: unsupported-modifier
  asm volatile inline("add.u32 %0, %1, %n2;" : "=r"(r1) : "r"(a), "r"(b));  // expect: unsupported-modifier
  __asm__ __inline__ __volatile__("add.u32 %0, %1, %n2;" : "=r"(r2) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r0 ^ r1 ^ r2;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u);
}
