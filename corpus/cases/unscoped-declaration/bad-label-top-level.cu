// unscoped-declaration: a label at the top level of the template.
// gpu: nvcc -arch=sm_90 fails: ptxas "Duplicate definition of label 'CLAMP_DONE'" once clamp_to() is inlined twice
// gpu-bad: ptxas "Duplicate definition of label 'CLAMP_DONE'"
__device__ __forceinline__ unsigned clamp_to(unsigned x, unsigned hi) {
  unsigned r = x;
  asm("{\n\t"
      ".reg .pred over;\n\t"
      "setp.le.u32 over, %0, %1;\n\t"
      "@over bra CLAMP_DONE;\n\t"
      "mov.u32 %0, %1;\n\t"
      "}\n\t"
      "CLAMP_DONE:"  // expect: unscoped-declaration
      : "+r"(r)
      : "r"(hi));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = clamp_to(in[t], 100u) + clamp_to(in[t + 1], 50u);
}
