// A placeholder in one modifier leaves that part unknown, but the rest of the template is still
// checked: the misspelled state space of the second instruction is reported.
#include <cstdint>

struct U32 {
  static constexpr char value[] = "u32";
};

template <class T>
__device__ uint32_t load_add(const uint32_t* p, uint32_t x) {
  uint32_t r, v;
  asm volatile(
      "add.%3 %0, %2, 1;\n\t"
      "ld.globl.u32 %1, [%4];" // expect: ptx-syntax
      : "=r"(r), "=r"(v)
      : "r"(x), "C"(T::value), "l"(p)
      : "memory");
  return r + v;
}

__global__ void kernel(const uint32_t* p, uint32_t* out) { out[0] = load_add<U32>(p, out[0]); }
