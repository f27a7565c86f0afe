// conditional-output (error): the predicated load leaves `v` unwritten for threads out of
// bounds; one read is under `if (in_bounds)`, but the sum after it reads `v` on every thread.
__global__ void copy_and_sum(const unsigned* in, unsigned* out, unsigned* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned in_bounds = i < n;
  unsigned v;
  asm volatile("{\n\t"
               ".reg .pred ok;\n\t"
               "setp.ne.u32 ok, %2, 0;\n\t"
               "@ok ld.u32 %0, [%1];\n\t"  // expect: conditional-output(warning)
               "}"
               : "=r"(v)
               : "l"(in + i), "r"(in_bounds)
               : "memory");
  if (in_bounds) out[i] = v;
  atomicAdd(sum, v);
}
