// missing-memory-clobber (warning): the twin of `bad-info-release-of-loaded-value.cu` with a
// second load whose value the release does not take (`w`, stored afterwards): without "memory"
// it may sink below the release.
#include <cstdint>

__global__ void publish(const uint32_t* counts, const uint32_t* totals, uint32_t* flag, uint32_t* out) {
  __syncthreads();
  uint32_t v = counts[blockIdx.x];
  uint32_t w = totals[blockIdx.x];
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(v));  // expect: missing-memory-clobber(warning), generic-address(info)
  out[blockIdx.x] = w;
}
