// Correct: the 32-bit output is zeroed before the guarded load reads its 64-bit address input.
// PTX registers are typed: an "=r" (.b32) output can never be given the register of an "l"
// (.b64) input, so the early write cannot destroy the address and no "&" is needed. (The
// 32-bit input %2 is read by setp before the output is written.)
__device__ unsigned load_or_zero(const unsigned* p, unsigned in_bounds) {
  unsigned v;
  asm volatile("{\n\t"
               ".reg .pred ok;\n\t"
               "setp.ne.u32 ok, %2, 0;\n\t"
               "mov.u32 %0, 0;\n\t"
               "@ok ld.u32 %0, [%1];\n\t"
               "}"
               : "=r"(v)
               : "l"(p), "r"(in_bounds)
               : "memory");
  return v;
}

__global__ void k(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = load_or_zero(in + i, i < n);
}
