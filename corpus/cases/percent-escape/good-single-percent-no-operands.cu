// Correct: with no operands the template is passed verbatim, so PTX names keep their single %.
// gpu-good: compiles
__device__ void settle() {
  asm volatile("{\n\t"
               ".reg .u32 %left;\n\t"
               ".reg .pred %more;\n\t"
               "mov.u32 %left, 32;\n\t"
               "SETTLE_LOOP:\n\t"
               "sub.u32 %left, %left, 1;\n\t"
               "setp.ne.u32 %more, %left, 0;\n\t"
               "@%more bra SETTLE_LOOP;\n\t"
               "}");
}

__global__ void k(float* out) {
  settle();
  settle();
  out[threadIdx.x] = 1.0f;
}
