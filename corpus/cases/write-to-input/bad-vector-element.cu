// write-to-input: one element of a vector destination is bound to an input.
#include <cstdint>

__device__ uint32_t load_pair(const uint2* p, uint32_t hi) {
  uint32_t lo;
  asm volatile("ld.v2.u32 {%0, %2}, [%1];"  // expect: write-to-input
               : "=r"(lo)
               : "l"(p), "r"(hi)
               : "memory");
  return lo + hi;
}

__global__ void k(const uint2* in, uint32_t* out) {
  out[threadIdx.x] = load_pair(in + threadIdx.x, 0u);
}
