// missing-memory-clobber (warning): an acquire load exists to order the C++ reads after it; without
// "memory" the compiler may move them above it.
#include <cstdint>

__device__ uint32_t load_acquire(const uint32_t* flag) {
  uint32_t v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"  // expect: missing-memory-clobber(warning)
               : "=r"(v)
               : "l"(__cvta_generic_to_global(flag)));
  return v;
}

// The acquire load orders the read of `data` after it.
__global__ void consume(const uint32_t* flag, const uint32_t* data, uint32_t* out) {
  if (load_acquire(flag) != 0) out[0] = data[0];
}
