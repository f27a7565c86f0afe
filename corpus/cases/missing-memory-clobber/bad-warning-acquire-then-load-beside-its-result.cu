// missing-memory-clobber (warning): the load of `data` sits in the same statement as the
// acquired value but does not depend on it (only the sum does): it may still be hoisted above
// the acquire (the twin of `bad-info-loads-then-store-of-their-values.cu`, where the store's
// value is the asm's result).
#include <cstdint>
__global__ void consume(const uint32_t* flag, const uint32_t* data, uint32_t* out) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_global(flag)));  // expect: missing-memory-clobber(warning)
  out[threadIdx.x] = data[threadIdx.x] + v;
}
