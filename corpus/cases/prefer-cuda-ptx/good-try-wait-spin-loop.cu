// Correct for prefer-cuda-ptx: the template is a whole spin loop (try_wait, then a branch back),
// not one instruction; cuda::ptx::mbarrier_try_wait_parity is one try, so replacing it means
// rewriting the loop in C++. The rule only suggests a wrapper for a template that is the wrapped
// instruction plus moves.
#include <cstdint>

__device__ void wait_phase(uint32_t bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t"
               ".reg .pred done;\n\t"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
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
