// Integer bit manipulation: lop3 with an "n" look-up table, bfe/bfi field moves, and a 64-bit add
// built from a carry chain (add.cc / addc), where the low output is written before the high inputs
// are read and is therefore marked early-clobber.
#include <cstdint>

template <unsigned char Lut>
__device__ __forceinline__ uint32_t lop3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t r;
  asm("lop3.b32 %0, %1, %2, %3, %4;\n" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(Lut));
  return r;
}

__device__ __forceinline__ uint32_t move_field(uint32_t src, uint32_t dst) {
  uint32_t r;
  asm("{\n\t"
      ".reg .u32 f;\n\t"
      "bfe.u32 f, %1, 8, 8;\n\t"
      "bfi.b32 %0, f, %2, 24, 8;\n\t"
      "}"
      : "=r"(r)
      : "r"(src), "r"(dst));
  return r;
}

__device__ __forceinline__ void add64(uint32_t alo, uint32_t ahi, uint32_t blo, uint32_t bhi,
                                      uint32_t& lo, uint32_t& hi) {
  asm("add.cc.u32 %0, %2, %4;\n\t"
      "addc.u32 %1, %3, %5;\n"
      : "=&r"(lo), "=r"(hi)
      : "r"(alo), "r"(ahi), "r"(blo), "r"(bhi));
}

__global__ void bits(const uint32_t* a, const uint32_t* b, uint32_t* out) {
  const unsigned t = threadIdx.x;
  const uint32_t majority = lop3<0xe8>(a[t], b[t], t);
  const uint32_t moved = move_field(a[t], b[t]);
  uint32_t lo, hi;
  add64(a[t], b[t], majority, moved, lo, hi);
  out[2 * t] = lo;
  out[2 * t + 1] = hi;
}
