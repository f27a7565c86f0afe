// missing-memory-clobber: `fence.mbarrier_init` orders only the mbarrier.init operations before
// it, which are asm themselves; no C++ access depends on it. Reported at info only.
#include <cstdint>

__global__ void init_barriers(uint64_t* unused) {
  __shared__ uint64_t bars[4];
  if (threadIdx.x < 4) {
    uint32_t bar = static_cast<uint32_t>(__cvta_generic_to_shared(&bars[threadIdx.x]));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(32) : "memory");  // expect: prefer-cuda-ptx(info)
  }
  asm volatile("fence.mbarrier_init.release.cluster;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
}
