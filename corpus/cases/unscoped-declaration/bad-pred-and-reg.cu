// unscoped-declaration: two declarations at the top level: one finding (one fix covers both),
// the second one labelled where it starts.
// gpu: nvcc -arch=sm_90 fails: ptxas "Duplicate definition of variable 'gt'" once select_max() is unrolled four times (measured)
// gpu-bad: ptxas "Duplicate definition of variable 'gt'"
__device__ __forceinline__ unsigned select_max(unsigned a, unsigned b) {
  unsigned r;
  asm(".reg .pred gt;\n\t"  // expect: unscoped-declaration
      ".reg .u32 best;\n\t"  // labelled in the finding above
      "setp.gt.u32 gt, %1, %2;\n\t"
      "selp.u32 best, %1, %2, gt;\n\t"
      "mov.u32 %0, best;"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
#pragma unroll
  for (int j = 0; j < 4; ++j) out[threadIdx.x * 4 + j] = select_max(in[j], in[j + 4]);
}
