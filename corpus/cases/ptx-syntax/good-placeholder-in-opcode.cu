// Placeholders inside the opcode: nvcc substitutes the operand's text there, a compile-time
// string for "C" (a `static constexpr char[]` member) and the immediate for "n". The opcode is
// only partly known here, so nothing is said about those parts; the rest is still checked.
// gpu: nvcc 13.0 emits `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` for this (see
// gpu: gpu-tests/measure/c-constraint.sh).
#include <cstdint>

struct Half {
  static constexpr char value[] = "f16";
};

template <class T>
__device__ void mma_16816(float* d, const uint32_t* a, const uint32_t* b) {
  asm volatile(
      "mma.sync.aligned.m16n8k%10.row.col.f32.%11.%11.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "n"(16),
        "C"(T::value));
}

template <class T>
__device__ uint32_t add_one(uint32_t x) {
  uint32_t r;
  asm("add.%2 %0, %1, 1;" : "=r"(r) : "r"(x), "C"(T::value));
  return r;
}

struct U32 {
  static constexpr char value[] = "u32";
};

__global__ void kernel(float* d, const uint32_t* a, uint32_t* out) {
  mma_16816<Half>(d, a, a + 4);
  out[0] = add_one<U32>(out[0]);
}
