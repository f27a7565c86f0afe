// A bulk asynchronous copy (cp.async.bulk, sm_90) from global into shared memory completed through
// an mbarrier transaction count: init, arrive.expect_tx, the copy, then a parity wait with %=
// labels inside { }. All under an sm_90 guard; the wrapped forms carry info-level expectations.
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void bar_init(uint32_t bar, uint32_t arrivals) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" :: "r"(bar), "r"(arrivals) : "memory");  // expect: prefer-cuda-ptx(info)
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__device__ __forceinline__ void bar_expect_tx(uint32_t bar, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;\n"  // expect: prefer-cuda-ptx(info)
               :: "r"(bar), "r"(bytes)
               : "memory");
#endif
}

__device__ __forceinline__ void bulk_g2s(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"  // expect: prefer-cuda-ptx(info)
               :: "r"(dst), "l"(__cvta_generic_to_global(src)), "r"(bytes), "r"(bar)
               : "memory");
#endif
}

__device__ __forceinline__ void bar_wait(uint32_t bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t"
               ".reg .pred ready;\n\t"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 ready, [%0], %1;\n\t"
               "@!ready bra WAIT_%=;\n\t"
               "}"
               :: "r"(bar), "r"(parity)
               : "memory");
#endif
}

__global__ void __launch_bounds__(128) bulk_sum(const float4* in, float* out) {
  __shared__ __align__(128) float4 tile[128];
  __shared__ __align__(8) uint64_t full;
  const uint32_t bar = smem_u32(&full);
  if (threadIdx.x == 0) bar_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    bar_expect_tx(bar, sizeof(tile));
    bulk_g2s(smem_u32(tile), in + blockIdx.x * 128, sizeof(tile), bar);
  }
  bar_wait(bar, 0);
  const float4 v = tile[threadIdx.x];
  out[blockIdx.x * 128 + threadIdx.x] = v.x + v.y + v.z + v.w;
}
