// missing-memory-clobber (warning): the acquire pattern written inline: the load under
// `if (v)` does not take the acquired value, so it may be hoisted above the acquire; a comment
// naming `v` between them changes nothing.
#include <cstdint>
__global__ void consume(const uint32_t* flag, const uint32_t* data, uint32_t* out) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_global(flag)));  // expect: missing-memory-clobber(warning)
  // v != 0: the producer's data is visible
  if (v) out[threadIdx.x] = data[threadIdx.x];
}
