// Correct: a single instruction reads its inputs and writes its outputs at once; no "&" needed,
// even with several outputs.
#include <cstdint>

__device__ void wide_mul(uint32_t a, uint32_t b, uint32_t& lo, uint32_t& hi) {
  uint64_t w;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b));
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(w));
}

__global__ void k(const uint32_t* in, uint32_t* out) {
  uint32_t lo, hi;
  wide_mul(in[threadIdx.x], 0x9e3779b9u, lo, hi);
  out[2 * threadIdx.x] = lo;
  out[2 * threadIdx.x + 1] = hi;
}
