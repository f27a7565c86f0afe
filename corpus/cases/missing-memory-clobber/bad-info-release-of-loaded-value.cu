// missing-memory-clobber (info): the only load before the release gives the value the release
// stores (`v`, an operand of the asm): the asm needs it, so the load cannot sink below it, and
// `__syncthreads()` pins everything before.
#include <cstdint>

__global__ void publish(const uint32_t* counts, uint32_t* flag) {
  __syncthreads();
  uint32_t v = counts[blockIdx.x];
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(v));  // expect: missing-memory-clobber(info), generic-address(info)
}
