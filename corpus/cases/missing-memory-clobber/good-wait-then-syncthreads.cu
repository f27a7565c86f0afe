// missing-memory-clobber: a wait directly followed by __syncthreads() needs no "memory" to be
// safe: __syncthreads() is itself a full compiler barrier, so no later C++ read of the tile can
// move above the wait. Reported at info only (not a warning).
#include <cstdint>

__global__ void stage_then_sum(const float* src, float* dst) {
  __shared__ float tile[128];
  uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(info)
  __syncthreads();
  dst[threadIdx.x] = tile[(threadIdx.x + 1) % 128];
}
