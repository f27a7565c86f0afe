// unused-operand (error): the template fills the low half only; the "=r" high half is never
// written.
#include <cstdint>

__device__ uint64_t widen_mul(uint32_t a, uint32_t b) {
  uint32_t lo, hi;
  asm("mul.lo.u32 %0, %2, %3;"
      : "=r"(lo),
        "=r"(hi)  // expect: unused-operand(warning)
      : "r"(a), "r"(b));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

__global__ void k(const uint32_t* in, uint64_t* out) {
  out[threadIdx.x] = widen_mul(in[threadIdx.x], 0x9e3779b9u);
}
