// Front end: `__asm__ __volatile__`.
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  __asm__ __volatile__("add.u32 %0, %1, %n2;"  // expect: unsupported-modifier
                       : "=r"(r)
                       : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u);
}
