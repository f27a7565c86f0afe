// missing-memory-clobber (warning): the twin of `bad-info-release-after-returning-branch.cu`
// whose branch does not return: the store to `lock[0]` then reaches the fence with no barrier
// between, and without "memory" it may sink below it.
__device__ inline void barrier_release(int* lock, bool reset) {
  __syncthreads();
  if (threadIdx.x == 0) {
    if (reset) {
      lock[0] = 0;
    }
    asm volatile("fence.acq_rel.gpu;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
    asm volatile("red.relaxed.gpu.global.add.s32 [%0], 1;" ::"l"(lock));  // expect: missing-memory-clobber(info), generic-address(info)
  }
}

__global__ void release(int* lock) { barrier_release(lock, true); }
