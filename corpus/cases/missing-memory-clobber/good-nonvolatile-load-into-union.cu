// Non-volatile loads into the members of an anonymous union, then a store of the union's
// other view: the stores into the union are the thread's own memory, and the store to `dest`
// needs the loads' results (through `lo`, `regs4` and its alias `regs8`), so neither can
// move across them. No finding but the loads' info.
#include <cstdint>

__device__ void pack_words(uint64_t* dest, const uint32_t* src, int shift) {
  union {
    uint64_t regs8[2];
    uint32_t regs4[4];
  };
  asm("ld.b32 %0, [%1];" : "=r"(regs4[0]) : "l"(src));  // expect: missing-memory-clobber(info)
  uint32_t lo, hi;
  asm("ld.b32 %0, [%1];" : "=r"(lo) : "l"(src + 1));  // expect: missing-memory-clobber(info)
  asm("ld.b32 %0, [%1];" : "=r"(hi) : "l"(src + 2));  // expect: missing-memory-clobber(info)
  regs4[1] = __funnelshift_r(lo, hi, 8 * shift);
  dest[0] = regs8[0];
}
