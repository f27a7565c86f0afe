// Front end: asm in a static member function of a class template, an out-of-class member
// definition and a nested struct.
#include <cstdint>

template <int Bits>
struct Field {
  __device__ static uint32_t extract(uint32_t x, uint32_t pos) {
    uint32_t r;
    asm("bfe.u32 %0, %1, %2, %n3;" : "=r"(r) : "r"(x), "r"(pos), "r"(static_cast<uint32_t>(Bits)));  // expect: unsupported-modifier
    return r;
  }

  struct Writer {
    __device__ uint32_t insert(uint32_t dst, uint32_t v, uint32_t pos) const;
  };
};

template <int Bits>
__device__ uint32_t Field<Bits>::Writer::insert(uint32_t dst, uint32_t v, uint32_t pos) const {
  uint32_t r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(v), "r"(dst), "r"(pos));  // expect: operand-index
  return r;
}

__global__ void k(uint32_t* v) {
  Field<8>::Writer w;
  v[threadIdx.x] = w.insert(v[threadIdx.x], Field<8>::extract(v[threadIdx.x], 4u), 16u);
}
