// operand-size-mismatch: a 64-bit pointer bound to "r" (not as an address: mov just copies it).
#include <cstdint>

__device__ uint32_t low_bits(const float* p) {
  uint32_t lo;
  asm("mov.b32 %0, %1;"
      : "=r"(lo)
      : "r"(p));  // expect: operand-size-mismatch
  return lo;
}

__global__ void alignment_check(const float* data, uint32_t* out) {
  out[threadIdx.x] = low_bits(data + threadIdx.x) & 15u;
}
