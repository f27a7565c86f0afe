// unsupported-constraint (error): `"n"` bound to a function parameter, which is not a constant
// expression: nvcc 13.0 rejects it (`an asm operand must be an integral constant expression`, measured).
#include <cstdint>

__device__ void wait_groups(int pending) {
  asm volatile("cp.async.wait_group %0;" :: "n"(pending) : "memory");  // expect: unsupported-constraint(error)
}
