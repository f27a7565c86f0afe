// missing-memory-clobber (info): the only store before the fence is in a branch that returns,
// so no path runs the store and then the fence; `__syncthreads()` pins what came before, and
// nothing follows the release in view (the helper has no caller here).
__device__ inline void barrier_release(int* lock, bool reset) {
  __syncthreads();
  if (threadIdx.x == 0) {
    if (reset) {
      lock[0] = 0;
      return;
    }
    asm volatile("fence.acq_rel.gpu;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
    asm volatile("red.relaxed.gpu.global.add.s32 [%0], 1;" ::"l"(lock));  // expect: missing-memory-clobber(info), generic-address(info)
  }
}
