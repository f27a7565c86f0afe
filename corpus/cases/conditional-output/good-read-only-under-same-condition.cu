// conditional-output, info only: the predicated load leaves `v` unwritten for threads out of
// bounds, and the kernel reads `v` only under `if (in_bounds)`, the input the predicate is
// computed from.
__global__ void copy_in_bounds(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned in_bounds = i < n;
  unsigned v;
  asm volatile("{\n\t"
               ".reg .pred ok;\n\t"
               "setp.ne.u32 ok, %2, 0;\n\t"
               "@ok ld.u32 %0, [%1];\n\t"  // expect: conditional-output(info)
               "}"
               : "=r"(v)
               : "l"(in + i), "r"(in_bounds)
               : "memory");
  if (in_bounds) out[i] = v;
}
