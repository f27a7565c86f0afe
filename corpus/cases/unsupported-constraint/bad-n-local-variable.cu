// unsupported-constraint (error): `"n"` bound to a local variable that is not `constexpr`.
#include <cstdint>

__device__ uint32_t rotate(uint32_t x, int by) {
  int amount = by & 31;
  uint32_t r;
  asm("shf.l.wrap.b32 %0, %1, %1, %2;" : "=r"(r) : "r"(x), "n"(amount));  // expect: unsupported-constraint(error)
  return r;
}
