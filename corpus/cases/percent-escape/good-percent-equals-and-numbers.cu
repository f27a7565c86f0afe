// Correct: %= (unique id), %% and %N are the escapes an asm with operands may use.
// gpu-good: compiles
__device__ unsigned count_down(unsigned n, unsigned step) {
  unsigned left = n;
  asm volatile("{\n\t"
               ".reg .pred %%more;\n\t"
               "DOWN_%=:\n\t"
               "sub.u32 %0, %0, %1;\n\t"
               "setp.gt.u32 %%more, %0, %1;\n\t"
               "@%%more bra DOWN_%=;\n\t"
               "}"
               : "+r"(left)
               : "r"(step));
  return left;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = count_down(1000u + threadIdx.x, 7u);
}
