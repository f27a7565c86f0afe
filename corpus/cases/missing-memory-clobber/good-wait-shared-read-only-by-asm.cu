// missing-memory-clobber (info): cp.async waits without "memory" whose shared tile is read only
// by other asm volatile (ld.shared, ldmatrix), while the C++ beside the waits touches only
// global memory through the kernel's pointer parameters. The waits order the copies' writes to
// shared memory; asm volatile statements keep their order among themselves, and no C++ access
// of shared memory is in view, so "memory" would change nothing here: info, not a warning.
#include <cstdint>

__device__ __forceinline__ float ld_shared_f32(uint32_t addr) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(addr));  // expect: missing-memory-clobber(info)
  return v;
}

__global__ void scale_rows(const float4* __restrict__ src, float* out, const float* bias, float scale) {
  __shared__ __align__(16) float4 tile[128];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  const int row = blockIdx.x * 128 + threadIdx.x;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + row)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-clobber(info)
  float x;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(x) : "r"(slot));  // expect: missing-memory-clobber(info)
  const float* b = bias + blockIdx.x;
  out[row] = x * scale + b[threadIdx.x] + ld_shared_f32(slot + 4);
}

__global__ void fragments(const uint4* __restrict__ src, uint4* out) {
  extern __shared__ __align__(16) uint8_t smem_raw[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw));
  const uint32_t slot = base + threadIdx.x * 16;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(info)
  uint32_t frag[4];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"  // expect: missing-memory-clobber(info)
               : "=r"(frag[0]), "=r"(frag[1]), "=r"(frag[2]), "=r"(frag[3])
               : "r"(slot));
  out[blockIdx.x * blockDim.x + threadIdx.x] = make_uint4(frag[0], frag[1], frag[2], frag[3]);
}
