// arch-requirement: wgmma exists only on sm_90a; unguarded it breaks every other target.
// targets: sm_90, sm_90a
// gpu: nvcc -arch=sm_90 fails: ptxas "Instruction 'wgmma.fence' not supported on .target 'sm_90'"
// gpu-bad: ptxas "Instruction 'wgmma.fence' not supported on .target 'sm_90'"
__device__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");  // expect: arch-requirement
}

__device__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");  // expect: arch-requirement
}

__global__ void k(float* out) {
  wgmma_fence();
  wgmma_commit();
  out[threadIdx.x] = 0.0f;
}
