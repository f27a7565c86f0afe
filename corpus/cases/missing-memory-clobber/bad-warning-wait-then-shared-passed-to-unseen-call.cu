// missing-memory-clobber (warning): the C++ after the wait passes the shared tile to a function
// whose body is not in view: it may read the copied data, which may then be read before the wait.
#include <cstdint>

__device__ float reduce_row(const float4* row);

__global__ void reduce(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(warning)
  out[threadIdx.x] = reduce_row(tile);
}
