// Built for sm_90 (the target) and sm_80 (this file's own --generate-code): the cluster
// barrier needs sm_90 and nothing guards it.
__global__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive;" ::: "memory");
  asm volatile("barrier.cluster.wait;" ::: "memory");
}
