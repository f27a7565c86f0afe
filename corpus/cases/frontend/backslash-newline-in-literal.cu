// Front end: a backslash-newline inside a string literal splices the next physical line into the
// literal; the modifier after the splice is on the second line.
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, \
%n2;"  // expect: unsupported-modifier
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__device__ unsigned spliced_opcode(unsigned a) {
  unsigned r;
  asm("mul.lo.u\
32 %0, %1, %2;"  // expect: operand-index
      : "=r"(r)
      : "r"(a));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u) + spliced_opcode(v[threadIdx.x]);
}
