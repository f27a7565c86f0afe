// Thread-block clusters on sm_90: each CTA publishes a value in its shared memory, the cluster
// synchronises, and each CTA reads its neighbour's value through distributed shared memory
// (mapa + ld.shared::cluster with 32-bit addresses). Guarded for sm_90; the cluster forms have
// cuda::ptx wrappers or a cooperative-groups equivalent, hence the info-level expectations.
#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HAS_CLUSTERS 1
#else
#define HAS_CLUSTERS 0
#endif

__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r = 0;
#if HAS_CLUSTERS
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));  // expect: prefer-cuda-ptx(info)
#endif
  return r;
}

__device__ __forceinline__ unsigned cluster_size() {
  unsigned r = 1;
#if HAS_CLUSTERS
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(r));  // expect: prefer-cuda-ptx(info)
#endif
  return r;
}

__device__ __forceinline__ void cluster_barrier() {
#if HAS_CLUSTERS
  asm volatile("barrier.cluster.arrive.release;\n" ::: "memory");  // expect: prefer-cuda-ptx(info)
  asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__device__ __forceinline__ uint32_t map_to_rank(uint32_t local_addr, unsigned rank) {
  uint32_t remote = local_addr;
#if HAS_CLUSTERS
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n"
               : "=r"(remote)
               : "r"(local_addr), "r"(rank));
#endif
  return remote;
}

__device__ __forceinline__ unsigned ld_dsmem(uint32_t cluster_addr) {
  unsigned v = 0;
#if HAS_CLUSTERS
  asm volatile("ld.shared::cluster.u32 %0, [%1];\n" : "=r"(v) : "r"(cluster_addr) : "memory");
#endif
  return v;
}

__global__ void neighbour_exchange(unsigned* out) {
  __shared__ unsigned mine;
  const unsigned rank = cluster_rank();
  if (threadIdx.x == 0) mine = blockIdx.x * 1000u + rank;
  cluster_barrier();
  if (threadIdx.x == 0) {
    const unsigned next = (rank + 1) % cluster_size();
    const uint32_t local = static_cast<uint32_t>(__cvta_generic_to_shared(&mine));
    out[blockIdx.x] = ld_dsmem(map_to_rank(local, next));
  }
  cluster_barrier();
}
