// arch-requirement: elect.sync needs sm_90.
// targets: sm_75, sm_90
// gpu: nvcc -arch=sm_75 fails: ptxas "Feature 'elect' requires .target sm_90 or higher" (measured)
// gpu-arch: sm_75
// gpu-bad: ptxas "Feature 'elect' requires .target sm_90 or higher"
__device__ unsigned elected() {
  unsigned r;
  asm volatile("{\n\t"
               ".reg .pred leader;\n\t"
               "elect.sync _|leader, 0xffffffff;\n\t"  // expect: arch-requirement
               "selp.u32 %0, 1, 0, leader;\n\t"
               "}"
               : "=r"(r));
  return r;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = elected();
}
