// prefer-cuda-ptx (info): forms written without the qualifiers the PTX ISA fills in. `.shared`
// is `.shared::cta`; mbarrier.arrive (and arrive.expect_tx) is `.release.cta`; mbarrier.init
// takes `.shared{::cta}`. Each is one cuda::ptx wrapper call.
#include <cstdint>

__device__ void init_barrier(uint32_t bar, uint32_t count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__device__ uint64_t arrive(uint32_t bar) {
  uint64_t state = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");  // expect: prefer-cuda-ptx(info)
#endif
  return state;
}

__device__ void arrive_expect_bytes(uint32_t bar, uint32_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"  // expect: prefer-cuda-ptx(info)
               :: "r"(bar), "r"(bytes)
               : "memory");
#endif
}

__global__ void k(unsigned long long* out) {
  __shared__ uint64_t bar;
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) init_barrier(b, blockDim.x);
  __syncthreads();
  arrive_expect_bytes(b, 0u);
  out[threadIdx.x] = arrive(b);
}
