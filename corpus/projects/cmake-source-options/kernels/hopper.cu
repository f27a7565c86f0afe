// Built for sm_90 only, with -DHOPPER_ONLY=1 (this file's COMPILE_DEFINITIONS): the cluster
// barrier is fine, and the Blackwell branch is not compiled.
__global__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive;" ::: "memory");
#ifndef HOPPER_ONLY
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
#endif
}
