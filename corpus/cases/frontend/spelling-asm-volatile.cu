// Front end: `asm volatile` — the deliberate %n2 proves the statement was found and mapped.
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm volatile("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u);
}
