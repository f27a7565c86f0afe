// missing-memory-clobber (info): a warp-specialised kernel. Warp 0 copies the tile with cp.async
// and waits without "memory"; the C++ shared accesses after it are in another role's block
// (`if (warp == 1)`), which never runs on warp 0's path, and the barrier with "memory" after
// both orders what follows. Nothing the wait must order is beside it.
#include <cstdint>

__global__ void roles(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[32];
  __shared__ float scale[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[lane]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + lane)) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(info)
  } else {
    scale[lane] = 0.5f;
  }
  if (warp == 1) {
    scale[lane] = 2.0f * lane;
  }
  asm volatile("bar.sync 1, 64;" ::: "memory");
  out[threadIdx.x] = tile[lane].x * scale[lane];
}
