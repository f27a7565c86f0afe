// Front end: operand expressions that contain commas, parentheses, templates and casts must not
// split or merge operands.
#include <cstdint>

template <typename A, typename B>
__device__ __forceinline__ uint32_t pick(A a, B b) {
  return a > b ? static_cast<uint32_t>(a) : static_cast<uint32_t>(b);
}

struct Pair {
  uint32_t first, second;
};

__device__ uint32_t combine(const Pair& p, const uint32_t* table, int i) {
  uint32_t r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %1, %2;\n\t"
      "add.u32 t, t, %3;\n\t"
      "add.u32 %0, t, %n4;\n\t"  // expect: unsupported-modifier
      "}"
      : "=r"(r)
      : "r"(pick<uint32_t, int>(p.first, i)),
        "r"((p.second, table[i])),
        "r"(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(table) & 0xffu)),
        "r"(Pair{p.first, p.second}.second));
  return r;
}

__global__ void k(const uint32_t* table, uint32_t* out) {
  Pair p{threadIdx.x, 7u};
  out[threadIdx.x] = combine(p, table, static_cast<int>(threadIdx.x));
}
