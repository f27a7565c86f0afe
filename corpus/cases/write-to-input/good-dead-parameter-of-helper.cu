// Not loud: the helper byte-swaps its by-value parameters in place, which the contract
// forbids, but its only caller passes array elements it never reads again, so no register the
// compiler still needs changes (info, not a warning).
#include <cstdint>

__device__ __forceinline__ uint64_t swab_pair(uint32_t x, uint32_t y) {
  uint64_t r;
  asm("prmt.b32 %1, %1, 0, 0x0123;\n\t"  // expect: write-to-input(info)
      "prmt.b32 %2, %2, 0, 0x0123;\n\t"  // expect: write-to-input(info)
      "mov.b64 %0, {%1, %2};"
      : "=l"(r)
      : "r"(x), "r"(y));
  return r;
}

__global__ void k(const uint32_t* in, uint64_t target, uint32_t* found) {
  uint32_t buf[8];
  for (int i = 0; i < 8; i++) buf[i] = in[threadIdx.x * 8 + i];
  if (swab_pair(buf[6], buf[7]) <= target) {
    found[0] = threadIdx.x;
  }
}
