// arch-requirement: redux.sync needs sm_80; nothing excludes the older default targets.
// targets: sm_75, sm_80
// gpu: nvcc -arch=sm_75 fails: ptxas "Feature 'redux' requires .target sm_80 or higher"
// gpu-arch: sm_75
// gpu-bad: ptxas "Feature 'redux' requires .target sm_80 or higher"
__device__ unsigned warp_sum(unsigned v) {
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;"  // expect: arch-requirement, prefer-intrinsic(info)
               : "=r"(r)
               : "r"(v));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = warp_sum(in[threadIdx.x]);
}
