// percent-escape (warning for clang): %clock with a single % in an asm with operands. nvcc accepts it;
// clang and GCC-style parsers reject %c as a modifier. (clock() is the intrinsic.)
// Built by clang too (a warning; info where only nvcc builds the file):
// portability: clang
__device__ unsigned now() {
  unsigned t;
  asm volatile("mov.u32 %0, %clock;" : "=r"(t));  // expect: percent-escape(warning), prefer-intrinsic(info)
  return t;
}

__global__ void k(unsigned* out) {
  unsigned t0 = now();
  unsigned t1 = now();
  out[threadIdx.x] = t1 - t0;
}
