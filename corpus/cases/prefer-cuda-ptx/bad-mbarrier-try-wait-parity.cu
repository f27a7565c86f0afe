// prefer-cuda-ptx (info): mbarrier.try_wait.parity.shared::cta is
// cuda::ptx::mbarrier_try_wait_parity (CCCL 2.3.0).
#include <cstdint>

__device__ void wait_phase(uint32_t bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t"
               ".reg .pred done;\n\t"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"  // expect: prefer-cuda-ptx(info)
               "@!done bra WAIT_%=;\n\t"
               "}"
               :: "r"(bar), "r"(parity)
               : "memory");
#endif
}

__global__ void k(float* out) {
  __shared__ uint64_t bar;
  wait_phase(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)), 0u);
  out[threadIdx.x] = 1.0f;
}
