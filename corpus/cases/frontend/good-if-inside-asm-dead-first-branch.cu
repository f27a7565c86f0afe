// An `#if` inside the asm statement whose first branch no device pass compiles (`_MSC_VER` is
// never defined on Linux): the `#else` branch is the template. Reading the first branch would
// see `%2`, an operand that does not exist.
#include <cstdint>

__device__ uint32_t add_one(uint32_t x) {
  uint32_t r;
  asm("add.u32 %0, "
#if defined(_MSC_VER)
      "%2"
#else
      "%1"
#endif
      ", 1;"
      : "=r"(r)
      : "r"(x));
  return r;
}

__global__ void kernel(uint32_t* out) { out[0] = add_one(out[0]); }
