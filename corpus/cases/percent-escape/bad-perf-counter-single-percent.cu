// percent-escape (warning): a performance-monitor register read with a single % in an asm with
// operands.
__device__ unsigned pm0() {
  unsigned v;
  asm volatile("mov.u32 %0, %pm0;" : "=r"(v));  // expect: percent-escape(warning)
  return v;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = pm0();
}
