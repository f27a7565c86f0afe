// Correct: macros defined elsewhere (by the build or a config header) whose names say they are
// architecture guards; in doubt the statement counts as guarded.
// gpu-good: compiles
__device__ void fence_operands() {
#if defined(CUTE_ARCH_MMA_SM90A_ENABLED)
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}

__device__ void commit_operands() {
#ifdef MYPROJ_ARCH_SM90A_ENABLED
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
#endif
}

__global__ void k(float* out) {
  fence_operands();
  commit_operands();
  out[threadIdx.x] = 0.0f;
}
