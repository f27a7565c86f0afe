// missing-memory-clobber (info): mbarrier init bookkeeping in a volatile asm without "memory".
#include <cstdint>

__device__ void init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count));  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
}
