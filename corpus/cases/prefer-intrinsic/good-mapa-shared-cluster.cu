// Correct for prefer-intrinsic: mapa.shared::cluster maps a 32-bit .shared::cluster address and
// returns one, for instructions that take such addresses; __cluster_map_shared_rank and
// cooperative_groups' map_shared_rank take and return generic pointers, so they are no drop-in.
#include <cstdint>

__device__ uint32_t remote_barrier(uint32_t local_bar, uint32_t rank) {
  uint32_t r = local_bar;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local_bar), "r"(rank));
#endif
  return r;
}

__global__ void k(unsigned* out) {
  __shared__ uint64_t bar;
  out[threadIdx.x] = remote_barrier(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)), 0u);
}
