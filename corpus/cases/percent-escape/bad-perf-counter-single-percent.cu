// percent-escape (warning for clang): a performance-monitor register read with a single % in an asm with
// operands.
// Built by clang too (a warning; info where only nvcc builds the file):
// portability: clang
__device__ unsigned pm0() {
  unsigned v;
  asm volatile("mov.u32 %0, %pm0;" : "=r"(v));  // expect: percent-escape(warning)
  return v;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = pm0();
}
