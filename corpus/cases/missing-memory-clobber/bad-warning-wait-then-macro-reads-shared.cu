// missing-memory-clobber (warning): the C++ after the wait reads the shared tile through a
// function-like macro whose replacement names it; the call site shows only an index.
#include <cstdint>

#define TILE_AT(i) tile[(i)].x

__global__ void through_macro(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(warning)
  out[threadIdx.x] = TILE_AT(threadIdx.x ^ 1);
}
