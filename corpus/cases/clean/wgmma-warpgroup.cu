// A warpgroup multiply-accumulate on sm_90a: operands staged in shared memory, made visible to the
// async proxy, then wgmma.fence / mma_async / commit_group / wait_group. Every statement sits
// under the sm_90a feature guard. Descriptors are 64-bit values ("l"), not addresses.
#include <cstdint>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WG_ENABLED 1
#else
#define WG_ENABLED 0
#endif

__device__ __forceinline__ uint64_t make_desc(const void* smem, uint32_t lead_bytes, uint32_t stride_bytes) {
  const uint64_t addr = static_cast<uint64_t>(__cvta_generic_to_shared(smem));
  return ((addr & 0x3ffff) >> 4) | (static_cast<uint64_t>(lead_bytes >> 4) << 16) |
         (static_cast<uint64_t>(stride_bytes >> 4) << 32);
}

__device__ __forceinline__ void async_proxy_fence() {
#if WG_ENABLED
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__device__ __forceinline__ void wg_fence() {
#if WG_ENABLED
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void wg_commit() {
#if WG_ENABLED
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

template <int Pending>
__device__ __forceinline__ void wg_wait() {
#if WG_ENABLED
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" :: "n"(Pending) : "memory");
#endif
}

__device__ __forceinline__ void wg_mma_m64n8k16(float (&d)[4], uint64_t desc_a, uint64_t desc_b,
                                                uint32_t accumulate) {
#if WG_ENABLED
  asm volatile("{\n\t"
               ".reg .pred keep;\n\t"
               "setp.ne.u32 keep, %6, 0;\n\t"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
               "{%0, %1, %2, %3}, %4, %5, keep, 1, 1, 0, 0;\n\t"
               "}"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(desc_a), "l"(desc_b), "r"(accumulate)
               : "memory");
#endif
}

__global__ void __launch_bounds__(128) warpgroup_tile(const uint4* a, const uint4* b, float* c) {
  __shared__ __align__(128) uint4 As[64 * 16 * 2 / 16];
  __shared__ __align__(128) uint4 Bs[8 * 16 * 2 / 16];
  for (int i = threadIdx.x; i < 128; i += 128) As[i] = a[i];
  if (threadIdx.x < 16) Bs[threadIdx.x] = b[threadIdx.x];
  async_proxy_fence();
  __syncthreads();

  float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  wg_fence();
  wg_mma_m64n8k16(d, make_desc(As, 128, 256), make_desc(Bs, 128, 256), 0u);
  wg_commit();
  wg_wait<0>();
  for (int i = 0; i < 4; ++i) c[threadIdx.x * 4 + i] = d[i];
}
