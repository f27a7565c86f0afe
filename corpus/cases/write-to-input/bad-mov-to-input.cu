// write-to-input: the template writes %0, which is declared as an input.
// gpu: launch k<<<1,1>>>(out); out[0] is 5 instead of 1: writing the input register silently changed x
__device__ __noinline__ int clobber(int x) {
  asm volatile("mov.u32 %0, 5;" :: "r"(x));  // expect: write-to-input
  return x;
}

__global__ void k(int* out) {
  out[0] = clobber(1);
}
