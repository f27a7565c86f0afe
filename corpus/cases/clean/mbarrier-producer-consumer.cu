// A producer warp fills a shared buffer and arrives on an mbarrier; consumer warps wait on the
// barrier's phase with a try_wait loop whose labels are made unique with %= inside { }.
// The mbarrier forms have cuda::ptx wrappers, hence the info-level expectations.
#include <cstdint>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__device__ __forceinline__ uint64_t mbar_arrive(uint32_t bar) {
  uint64_t state = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");  // expect: prefer-cuda-ptx(info)
#endif
  return state;
}

__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t"
               ".reg .pred done;\n\t"
               "LAB_WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@done bra LAB_DONE_%=;\n\t"
               "bra.uni LAB_WAIT_%=;\n\t"
               "LAB_DONE_%=:\n\t"
               "}"
               :: "r"(bar), "r"(parity)
               : "memory");
#endif
}

__global__ void __launch_bounds__(128) produce_consume(const float* in, float* out, int rounds) {
  __shared__ __align__(8) uint64_t full;
  __shared__ float buf[32];
  const uint32_t bar = smem_u32(&full);
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;

  if (threadIdx.x == 0) mbar_init(bar, 32);
  __syncthreads();

  float acc = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    if (warp == 0) {
      buf[lane] = in[r * 32 + lane];
      mbar_arrive(bar);
    } else {
      mbar_wait(bar, static_cast<uint32_t>(r & 1));
      acc += buf[lane];
    }
    __syncthreads();
  }
  if (warp != 0) out[(warp - 1) * 32 + lane] = acc;
}
