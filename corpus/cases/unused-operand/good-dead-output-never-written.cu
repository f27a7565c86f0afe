// unused-operand, info only: an "=" output the template never writes, but the variable is dead
// after the asm (it goes out of scope): no garbage is read today; the operand should be an input.
#include <cstdint>

__device__ void prefetch_rows(const float* base, int rows, int stride) {
  for (int r = 0; r < rows; ++r) {
    uint64_t addr = reinterpret_cast<uint64_t>(base + r * stride);
    asm volatile("prefetch.global.L2 [%1];" : "=l"(addr) : "l"(addr));  // expect: unused-operand(info)
  }
}
