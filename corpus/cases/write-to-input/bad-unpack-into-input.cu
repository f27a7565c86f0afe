// write-to-input: unpacking a 64-bit value writes both halves, but the high half is bound to an
// input (the outputs were miscounted).
#include <cstdint>

__device__ uint32_t low_half(uint64_t v, uint32_t hi) {
  uint32_t lo;
  asm("mov.b64 {%0, %2}, %1;"  // expect: write-to-input
      : "=r"(lo)
      : "l"(v), "r"(hi));
  return lo ^ hi;
}

__global__ void k(const uint64_t* in, uint32_t* out) {
  out[threadIdx.x] = low_half(in[threadIdx.x], 0u);
}
