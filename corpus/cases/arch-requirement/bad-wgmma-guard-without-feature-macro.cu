// arch-requirement: __CUDA_ARCH__ >= 900 excludes the older targets but not plain sm_90, where
// targets: sm_90, sm_90a
// wgmma does not exist; the guard also needs __CUDA_ARCH_FEAT_SM90_ALL.
// gpu: nvcc -arch=sm_90 fails: ptxas "Instruction 'wgmma.wait_group' not supported on .target 'sm_90'"
// gpu-bad: ptxas "Instruction 'wgmma.wait_group' not supported on .target 'sm_90'"
template <int N>
__device__ void wgmma_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory");  // expect: arch-requirement
#endif
}

__global__ void k(float* out) {
  wgmma_wait<0>();
  out[threadIdx.x] = 0.0f;
}
