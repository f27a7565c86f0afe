// Front end: backslash-newlines between tokens outside any #define (line splices the compiler
// removes before tokenising).
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm volatile \
      ("add.u32 %0, %1, %n2;"  /* expect: unsupported-modifier */ \
       : "=r"(r) \
       : "r"(a), "r"(b));
  return r;
}

__device__ unsigned spliced_open_paren(unsigned a) {
  unsigned r;
  asm( \
"add.u32 %0, %1, %2;" : "=r"(r) : "r"(a));  // expect: operand-index
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u) + spliced_open_paren(v[threadIdx.x]);
}
