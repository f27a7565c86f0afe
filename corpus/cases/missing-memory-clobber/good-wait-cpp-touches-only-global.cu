// missing-memory-clobber (info): cp.async waits whose C++ neighbours touch memory known not to be
// shared: a kernel's pointer parameters (the host cannot pass a shared address), a member of a
// kernel's parameter struct, locals computed from them (casts and offsets included), local
// arrays, and helpers given only such pointers. The copies' shared memory is read only by asm.
#include <cstdint>

struct Params {
  float* out;
  const float* scale;
};

__device__ __forceinline__ void store_pair(float* dst, float a, float b) {
  dst[0] = a;
  dst[1] = b;
}

__device__ __forceinline__ float ld_shared_f32(uint32_t addr) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(addr));  // expect: missing-memory-clobber(info)
  return v;
}

__global__ void epilogue(const float4* __restrict__ src, float4* out, Params params, int n) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(info)
  float acc[4];
  for (int i = 0; i < 4; ++i) acc[i] = ld_shared_f32(slot + 4 * i) * params.scale[i];
  float* row = params.out + blockIdx.x * n;
  store_pair(row + 2 * threadIdx.x, acc[0], acc[1]);
  *reinterpret_cast<float2*>(row + 2 * threadIdx.x + 64) = make_float2(acc[2], acc[3]);
  *(float4*)(&out[threadIdx.x]) = make_float4(acc[0], acc[1], acc[2], acc[3]);
}

__global__ void drain_then_store(float* out, int n) {
  __shared__ __align__(16) float stage[256];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(stage));
  // TMA store of the staged tile (its bulk group), then wait until the shared source is read.
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" :: "l"(__cvta_generic_to_global(out)), "r"(base) : "memory");  // expect: prefer-cuda-ptx(info)
  asm volatile("cp.async.bulk.commit_group;");  // expect: prefer-cuda-ptx(info)
  asm volatile("cp.async.bulk.wait_group.read 0;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  out[n + threadIdx.x] = 0.0f;
}
