// operand-type-mismatch: an "=f" output as the destination of min.s32.
// gpu: nvcc -arch=sm_90 fails: ptxas "Arguments mismatch for instruction 'min'" (measured)
// gpu-bad: ptxas "Arguments mismatch for instruction 'min'"
__device__ float clamp_index(int a, int b) {
  float r;
  asm("min.s32 %0, %1, %2;"
      : "=f"(r)  // expect: operand-type-mismatch
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(float* out) {
  out[threadIdx.x] = clamp_index(static_cast<int>(threadIdx.x), 17);
}
