// ptx-syntax: .sat is only valid for add.s32; add.sat.u32 does not exist.
// gpu: nvcc -arch=sm_90 fails: ptxas "Modifier '.sat' does not apply to '.u32' type" (measured)
// gpu-bad: ptxas "Modifier '.sat' does not apply to '.u32' type"
__device__ unsigned sat_add(unsigned a, unsigned b) {
  unsigned r;
  asm("add.sat.u32 %0, %1, %2;"  // expect: ptx-syntax
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sat_add(v[threadIdx.x], 0xfffffff0u);
}
