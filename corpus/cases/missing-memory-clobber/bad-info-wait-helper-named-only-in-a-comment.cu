// missing-memory-clobber (info): the grid-dependency wait sits in a helper whose name appears
// beside the loads only in a comment (`// loaded before the caller's `wait_for_producer()``),
// and nothing in the file calls it: no C++ access is beside the wait.
__device__ __forceinline__ void wait_for_producer() {
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(info), prefer-intrinsic(info)
}

// Loads what the previous kernel did not write: runs before the caller's
// `wait_for_producer()`, overlapping the producer's tail.
__device__ float load_weights(const float* weights) {
  return weights[threadIdx.x];
}
