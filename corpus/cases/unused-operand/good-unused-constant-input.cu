// A literal constant passed as an input and never referenced: a leftover of an earlier version
// of the template. No data is ignored, so it is info, not a warning.
#include <cstdint>

__device__ uint32_t pack(uint32_t lo, uint32_t hi) {
  uint32_t r;
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(lo), "r"(hi), "r"(0x80008000)); // expect: unused-operand(info)
  return r;
}

__global__ void kernel(uint32_t* out) { out[0] = pack(out[1], out[2]); }
