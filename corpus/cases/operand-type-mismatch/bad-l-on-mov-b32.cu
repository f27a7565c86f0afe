// operand-type-mismatch: a 64-bit "l" source for mov.b32.
// gpu: ptxas rejects: Arguments mismatch for instruction 'mov'
// gpu-bad: ptxas "Arguments mismatch for instruction 'mov'"
#include <cstdint>

__device__ uint32_t truncate_word(uint64_t w) {
  uint32_t r;
  asm("mov.b32 %0, %1;"
      : "=r"(r)
      : "l"(w));  // expect: operand-type-mismatch
  return r;
}

__global__ void k(const uint64_t* in, uint32_t* out) {
  out[threadIdx.x] = truncate_word(in[threadIdx.x]);
}
