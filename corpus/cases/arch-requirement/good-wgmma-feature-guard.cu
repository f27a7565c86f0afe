// Correct: wgmma behind the full guard: sm_90 or newer AND the sm_90a feature set.
// gpu-good: compiles
template <int N>
__device__ __forceinline__ void warpgroup_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory");
#endif
}

__device__ __forceinline__ void warpgroup_arrive() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}

__device__ __forceinline__ void warpgroup_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}

__global__ void k(float* out) {
  warpgroup_arrive();
  warpgroup_commit();
  warpgroup_wait<0>();
  out[threadIdx.x] = 1.0f;
}
