// missing-memory-clobber: the asm stores through `p`, and the C++ reads `p[0]` after it. The
// `int* p` of the closed `if` block before the asm is another variable, and `scale * p[2]`
// is a product, not a declaration: neither hides the read.
__global__ void publish(int* out, int* tmp, int scale) {
  int* p = out;
  int s = 0;
  if (threadIdx.x == 0) {
    int* p = tmp;
    p[0] = 0;
    s = scale * out[2];
  }
  asm volatile("st.u32 [%0], %1;" :: "l"(p), "r"(s));  // expect: missing-memory-clobber(warning)
  out[1] = p[0];
}
