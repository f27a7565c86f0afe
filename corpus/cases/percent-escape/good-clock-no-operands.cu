// Correct as far as percent-escape goes: a delay loop in an asm with no operands, where the
// single % of %clock and of the local registers is exactly what ptxas must see. (The %clock reads
// are steps of a loop, so prefer-intrinsic does not suggest clock() for them.)
// gpu-good: compiles
__device__ void delay_1000_cycles() {
  asm volatile("{\n\t"
               ".reg .u32 %start, %now, %spent;\n\t"
               ".reg .pred %wait;\n\t"
               "mov.u32 %start, %clock;\n\t"
               "DELAY_AGAIN:\n\t"
               "mov.u32 %now, %clock;\n\t"
               "sub.u32 %spent, %now, %start;\n\t"
               "setp.lt.u32 %wait, %spent, 1000;\n\t"
               "@%wait bra DELAY_AGAIN;\n\t"
               "}");
}

__global__ void k(float* out) {
  delay_1000_cycles();
  out[threadIdx.x] = 2.0f;
}
