// Cluster helpers. The Ampere variant of setup.py defines DISABLE_CLUSTER.
#pragma once

__device__ inline void cluster_sync() {
#ifndef DISABLE_CLUSTER
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
#endif
}

// Forgotten when the Ampere variant was added: sm_90 only, and nothing excludes sm_80.
__device__ inline unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
