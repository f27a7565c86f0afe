// unsupported-constraint: `"n"` with constant expressions only: a template parameter, a
// `constexpr` variable, a `const` integer initialised with a literal, an enumerator.
#include <cstdint>

enum { kGroups = 2 };

template <int N>
__device__ void wait_groups() {
  constexpr int limit = N > 4 ? 4 : N;
  const int one = 1;
  asm volatile("cp.async.wait_group %0;" :: "n"(N) : "memory");
  asm volatile("cp.async.wait_group %0;" :: "n"(limit) : "memory");
  asm volatile("cp.async.wait_group %0;" :: "n"(one) : "memory");
  asm volatile("cp.async.wait_group %0;" :: "n"(kGroups) : "memory");
}

template __device__ void wait_groups<3>();
