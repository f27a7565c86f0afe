// operand-type-mismatch: packed `.f16x2` values in `"r"` (`.b32`) registers, as the ISA gives
// their operands: accepted by ptxas 13.0 for `add` and `multimem.ld_reduce` (measured, sm_90).
#include <cstdint>

__device__ uint32_t add_halves(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("add.rn.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ uint2 reduce_halves(uint64_t multicast_addr) {
  uint2 r = {0, 0};
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("multimem.ld_reduce.relaxed.sys.global.add.v2.f16x2 {%0, %1}, [%2];"
               : "=r"(r.x), "=r"(r.y)
               : "l"(multicast_addr)
               : "memory");
#endif
  return r;
}
