// operand-type-mismatch: `"f"` (an `.f32` register) bound to the packed `.f16x2` values of
// multimem.red. Measured with ptxas 13.0 (sm_90, scalar and .v4 forms): `Arguments mismatch
// for instruction 'multimem.red'`; a `.b32` register (`"r"`) is accepted.
#include <cstdint>

__device__ void all_reduce_add(uint64_t multicast_addr, float h01, float h23) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("multimem.red.relaxed.sys.global.add.v2.f16x2 [%0], {%1, %2};"
               :: "l"(multicast_addr),
                  "f"(h01),  // expect: operand-type-mismatch
                  "f"(h23)  // expect: operand-type-mismatch
               : "memory");
#endif
}
