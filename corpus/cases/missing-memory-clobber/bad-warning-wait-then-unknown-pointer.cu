// missing-memory-clobber (warning): C++ after a cp.async wait accesses memory that may be shared,
// as far as the code in view tells: a pointer a call returns, a helper in view that reads
// through the shared pointer it is given, and a pointer stored through its address.
#include <cstdint>

__device__ float* staging_buffer();
__device__ void pick_buffer(float** p);

__device__ float first(const float* p) { return p[0]; }

__global__ void from_call(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(warning)
  float* buf = staging_buffer();
  out[threadIdx.x] = buf[threadIdx.x];
}

__global__ void through_helper(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(warning)
  out[threadIdx.x] = first(reinterpret_cast<const float*>(&tile[threadIdx.x]));
}

__global__ void through_address(const float4* __restrict__ src, float* out) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  float* buf = out;
  pick_buffer(&buf);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(warning)
  out[threadIdx.x] = buf[threadIdx.x];
}
