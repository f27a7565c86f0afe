// missing-memory-clobber: `barrier.cluster.arrive.relaxed` orders no memory (that is what
// `.relaxed` means), so it needs no "memory" clobber; the matching wait below has one.
__device__ void cluster_sync_relaxed() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.relaxed.aligned;");
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
#endif
}
