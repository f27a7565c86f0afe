// missing-memory-clobber (warning): the C++ after the wait reads the shared memory the copies
// fill through locals derived from the __shared__ array (a cast and an offset; a reference to a
// struct laid over dynamic shared memory): still shared memory, so the read may move above the wait.
#include <cstdint>

__global__ void through_pointer(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[128];
  const float* row = reinterpret_cast<const float*>(tile) + 4 * (threadIdx.x / 32);
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(warning)
  out[blockIdx.x * 128 + threadIdx.x] = row[threadIdx.x % 32];
}

struct Storage {
  float4 a[64];
  float scale[64];
};

__global__ void through_reference(const float4* __restrict__ src, float* out) {
  extern __shared__ __align__(16) uint8_t smem_raw[];
  auto& storage = *reinterpret_cast<Storage*>(smem_raw);
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&storage.a[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(warning)
  out[threadIdx.x] = storage.scale[threadIdx.x];
}
