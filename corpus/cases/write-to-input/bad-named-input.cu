// write-to-input: a named input (`%[acc]`) incremented in place before it is used again.
__device__ unsigned bump_named(unsigned acc, unsigned step) {
  unsigned r;
  asm("{\n\t"
      "add.u32 %[acc], %[acc], %[step];\n\t"  // expect: write-to-input
      "add.u32 %[r], %[acc], %[acc];\n\t"
      "}"
      : [r] "=r"(r)
      : [acc] "r"(acc), [step] "r"(step));
  return r;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = bump_named(threadIdx.x, 3u);
}
