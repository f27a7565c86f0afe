// missing-memory-clobber (warning): the wait is in a device function that reads through its
// pointer parameter after it; the caller may pass shared memory (here it does), so the read may
// be of the copied data and may move above the wait without "memory".
#include <cstdint>

__device__ float wait_then_read(const float* buf, int i) {
  asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(warning)
  return buf[i];
}

__global__ void consume(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  out[threadIdx.x] = wait_then_read(reinterpret_cast<const float*>(tile), threadIdx.x);
}
