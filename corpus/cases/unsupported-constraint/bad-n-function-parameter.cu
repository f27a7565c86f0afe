// unsupported-constraint (error): `"n"` bound to a function parameter, which is not a constant
// expression: clang rejects it (`constraint 'n' expects an integer constant expression`).
#include <cstdint>

__device__ void wait_groups(int pending) {
  asm volatile("cp.async.wait_group %0;" :: "n"(pending) : "memory");  // expect: unsupported-constraint(error)
}
