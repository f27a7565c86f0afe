// Correct for prefer-intrinsic: each instruction with an intrinsic here is one step of a longer
// template (a wait loop with a timeout, an address conversion feeding a copy). clock64() or
// __cvta_generic_to_shared() replaces the step, not the statement, so nothing is suggested.
#include <cstdint>

__device__ void wait_with_timeout(uint32_t bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t"
               ".reg .pred done, late;\n\t"
               ".reg .u64 start, now;\n\t"
               "mov.u64 start, %%clock64;\n\t"
               "WAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n\t"
               "@done bra DONE_%=;\n\t"
               "mov.u64 now, %%clock64;\n\t"
               "sub.u64 now, now, start;\n\t"
               "setp.ge.u64 late, now, 1000000;\n\t"
               "@late trap;\n\t"
               "bra WAIT_%=;\n\t"
               "DONE_%=:\n\t"
               "}"
               :: "r"(bar), "r"(parity)
               : "memory");
#endif
}

__device__ void copy4(float* smem_dst, const float* gmem_src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("{\n\t"
               ".reg .u64 s64, g;\n\t"
               ".reg .u32 s;\n\t"
               "cvta.to.shared.u64 s64, %0;\n\t"
               "cvt.u32.u64 s, s64;\n\t"
               "cvta.to.global.u64 g, %1;\n\t"
               "cp.async.ca.shared.global [s], [g], 4;\n\t"
               "}"
               :: "l"(smem_dst), "l"(gmem_src)
               : "memory");
#endif
}

__global__ void k(const float* in, float* out) {
  __shared__ uint64_t bar;
  __shared__ float s[32];
  copy4(&s[threadIdx.x & 31], in + threadIdx.x);
  wait_with_timeout(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)), 0u);
  out[threadIdx.x] = s[threadIdx.x & 31];
}
