// "C" wants the address of a constant character array: nvcc 13.0 rejects a string literal and
// a conditional expression (measured: gpu-tests/measure/c-constraint.sh).
#include <cstdint>

struct U32 {
  static constexpr char value[] = "u32";
};

__device__ uint32_t add_literal(uint32_t x) {
  uint32_t r;
  asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(x), "C"("u32")); // expect: unsupported-constraint
  return r;
}

__device__ uint32_t add_chosen(uint32_t x, bool is_signed) {
  uint32_t r;
  asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(x), "C"(is_signed ? "s32" : "u32")); // expect: unsupported-constraint
  return r;
}

__device__ uint32_t add_member(uint32_t x) {
  uint32_t r;
  asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(x), "C"(U32::value));
  return r;
}

__global__ void kernel(uint32_t* out) {
  out[0] = add_literal(out[0]) + add_chosen(out[1], out[2] != 0) + add_member(out[3]);
}
