// missing-memory-clobber (warning): cp.async.bulk.wait_group without .read waits for the bulk
// copies' writes to global memory, which the C++ after it reads through a kernel parameter: the
// read may move above the wait without "memory" (unlike .read, which orders only shared memory).
#include <cstdint>

__global__ void store_then_reread(float* out, float* check) {
  __shared__ __align__(16) float stage[256];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(stage));
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" :: "l"(__cvta_generic_to_global(out)), "r"(base) : "memory");  // expect: prefer-cuda-ptx(info)
  asm volatile("cp.async.bulk.commit_group;");  // expect: prefer-cuda-ptx(info)
  asm volatile("cp.async.bulk.wait_group 0;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
  check[threadIdx.x] = out[threadIdx.x];
}
