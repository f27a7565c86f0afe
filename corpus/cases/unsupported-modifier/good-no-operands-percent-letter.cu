// Correct: with no operands the template is verbatim PTX, so %n1 and %c0 are just register names.
// gpu-good: compiles
__device__ void scratch_regs() {
  asm volatile("{\n\t"
               ".reg .u32 %n1, %c0;\n\t"
               "mov.u32 %n1, 1;\n\t"
               "add.u32 %c0, %n1, 2;\n\t"
               "}");
}

__global__ void k(float* out) {
  scratch_regs();
  out[threadIdx.x] = 3.0f;
}
