// percent-escape (error): %% in an asm with no operands reaches ptxas verbatim.
// gpu: nvcc -arch=sm_90 fails: ptxas "Parsing error near '%'" (with no operands nvcc passes %% through unchanged)
// gpu-bad: ptxas "Parsing error near '%'"
__device__ void zero_scratch() {
  asm volatile("{\n\t"
               ".reg .u32 %%scratch;\n\t"  // expect: percent-escape(error)
               "mov.u32 %%scratch, 0;\n\t"  // expect: percent-escape(error)
               "}");
}

__global__ void k(float* out) {
  zero_scratch();
  out[threadIdx.x] = 1.0f;
}
