// Correct: asm that touches only registers needs no "memory" clobber, volatile or not.
#include <cstdint>

__device__ uint32_t pack_bytes(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("{\n\t"
      ".reg .u32 lo, hi;\n\t"
      "and.b32 lo, %1, 0xffff;\n\t"
      "bfi.b32 %0, %2, lo, 16, 16;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__device__ uint64_t join(uint32_t lo, uint32_t hi) {
  uint64_t r;
  asm volatile("mov.b64 %0, {%1, %2};" : "=l"(r) : "r"(lo), "r"(hi));
  return r;
}

__global__ void k(const uint32_t* in, uint64_t* out) {
  unsigned t = threadIdx.x;
  out[t] = join(pack_bytes(in[t], in[t + 1]), in[t]);
}
