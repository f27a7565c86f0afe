// Front end: \x25 is a '%' written as a hex escape, so "\x25n2" is the modifier %n2; the finding
// starts at the escape.
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, \x25n2;"  // expect: unsupported-modifier
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__device__ unsigned escaped_placeholders(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 \x25\x30, \x25\x31, %3;"  // expect: operand-index
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u) + escaped_placeholders(v[threadIdx.x], 1u);
}
