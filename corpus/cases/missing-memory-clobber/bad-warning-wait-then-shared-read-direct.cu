// missing-memory-clobber (warning): as good-wait-shared-read-only-by-asm.cu, but the C++ after the
// wait reads the shared tile the copies fill: without "memory" that read may move above the wait.
#include <cstdint>

__global__ void scale_rows(const float4* __restrict__ src, float* out, float scale) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  const int row = blockIdx.x * 128 + threadIdx.x;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + row)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(warning)
  out[row] = tile[threadIdx.x ^ 1].x * scale;
}
