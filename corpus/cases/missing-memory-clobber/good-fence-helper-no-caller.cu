// A header-style helper whose body is the fence alone, with no caller in this file: no C++
// access is in view for the missing "memory" to let move, so it is info here. (Where a caller
// in view touches memory around the call, it is a warning: bad-warning-acquire-load.cu.)
__device__ __forceinline__ void fence_gpu() {
  asm volatile("fence.acq_rel.gpu;"); // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
}
