// conditional-output: a guarded load into an "=r" output; when the guard is false the result is
// garbage rather than the zero the caller set.
__device__ unsigned load_if(const unsigned* p, unsigned in_bounds) {
  unsigned v = 0;
  asm volatile("{\n\t"
               ".reg .pred ok;\n\t"
               "setp.ne.u32 ok, %2, 0;\n\t"
               "@ok ld.u32 %0, [%1];\n\t"  // expect: conditional-output
               "}"
               : "=r"(v)
               : "l"(p), "r"(in_bounds)
               : "memory");
  return v;
}

__global__ void k(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = load_if(in + i, i < n);
}
