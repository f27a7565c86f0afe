// missing-memory-clobber (info): the acquire polls a flag in a loop the compiler cannot prove
// ends (a `while (true)` left on the loaded value; a helper called in a `do ... while`), and
// only stores follow: a store cannot be moved above a loop that may never end, so "memory"
// would order nothing more here.
#include <cstdint>

__device__ uint32_t ld_acquire(const uint32_t* p) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p));  // expect: missing-memory-clobber(info), generic-address(info)
  return v;
}

__global__ void wait_then_reset(const uint32_t* ready, uint32_t* slots, uint32_t* out) {
  while (true) {
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(ready));  // expect: missing-memory-clobber(info), generic-address(info)
    if (v >= 7) break;
  }
  atomicCAS(&slots[threadIdx.x], 7u, 0u);
  uint32_t seen;
  do {
    seen = ld_acquire(ready + 1);
  } while (seen == 0);
  *(out + blockIdx.x) = seen;
}
