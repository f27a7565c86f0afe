// percent-escape (warning for clang): a predicate named %p in an asm with operands (the form many projects
// copied from the PTX manual).
// Built by clang too (a warning; info where only nvcc builds the file):
// portability: clang
__device__ unsigned equals34(int x) {
  unsigned y;
  asm("{\n\t"
      ".reg .pred %p;\n\t"  // expect: percent-escape
      "setp.eq.s32 %p, %1, 34;\n\t"  // expect: percent-escape
      "selp.u32 %0, 1, 0, %p;\n\t"  // expect: percent-escape
      "}"
      : "=r"(y)
      : "r"(x));
  return y;
}

__global__ void k(const int* in, unsigned* out) {
  out[threadIdx.x] = equals34(in[threadIdx.x]);
}
