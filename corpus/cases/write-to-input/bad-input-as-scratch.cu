// write-to-input: the input %1 is used as scratch space; the caller's copy of x may change.
// gpu: launch k<<<1,1>>>(out) with x = 10, d = 3; out[0] may be 26 instead of 23 ((x+d) + x expected; the register holding x was overwritten)
__device__ __noinline__ unsigned bump_and_add(unsigned x, unsigned d) {
  unsigned r;
  asm volatile("add.u32 %1, %1, %2;\n\t"  // expect: write-to-input
               "mov.u32 %0, %1;"
               : "=r"(r)
               : "r"(x), "r"(d));
  return r + x;
}

__global__ void k(unsigned* out) {
  out[0] = bump_and_add(10u, 3u);
}
