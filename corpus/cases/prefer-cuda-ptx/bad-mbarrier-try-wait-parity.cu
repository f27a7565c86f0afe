// prefer-cuda-ptx (info): one mbarrier.try_wait.parity whose predicate is moved into the result
// (selp) is cuda::ptx::mbarrier_try_wait_parity (CCCL 2.3.0), which returns that bool.
#include <cstdint>

__device__ bool try_phase(uint32_t bar, uint32_t parity) {
  uint32_t done = 1;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"  // expect: prefer-cuda-ptx(info)
               "selp.u32 %0, 1, 0, p;\n\t"
               "}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
#endif
  return done != 0;
}

__global__ void k(float* out) {
  __shared__ uint64_t bar;
  while (!try_phase(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)), 0u)) {
  }
  out[threadIdx.x] = 1.0f;
}
