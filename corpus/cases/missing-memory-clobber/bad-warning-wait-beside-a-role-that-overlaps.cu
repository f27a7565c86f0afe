// missing-memory-clobber (warning): the same warp-specialised kernel, but the block after the
// wait runs for warp 0 too (`warp == 0 || lane == 0`): its read of the tile may be moved above
// the wait, before the cp.async data has landed.
#include <cstdint>

__global__ void roles(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[32];
  __shared__ float scale[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0) {
    const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[lane]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + lane)) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(warning)
  }
  if (warp == 0 || lane == 0) {
    scale[lane] = tile[lane].y;
  }
  asm volatile("bar.sync 1, 64;" ::: "memory");
  out[threadIdx.x] = tile[lane].x * scale[lane];
}
