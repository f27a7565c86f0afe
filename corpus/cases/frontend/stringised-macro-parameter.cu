// Front end: the cache operator comes from a stringised macro parameter ("ld." #mod ...), so the
// template is partial: rules stay silent about the unknown part, but the modifier elsewhere in the
// template is still found.
#include <cstdint>

#define LOAD_V4(mod, out, ptr)                                              \
  asm volatile("ld." #mod ".v4.u32 {%0, %1, %2, %3}, [%c4];" /* expect: unsupported-modifier */ \
               : "=r"((out).x), "=r"((out).y), "=r"((out).z), "=r"((out).w) \
               : "l"(ptr)                                                   \
               : "memory")

__device__ uint4 load_streaming(const uint4* p) {
  uint4 v;
  LOAD_V4(global.cs, v, p);
  return v;
}

__global__ void k(const uint4* in, uint4* out) {
  out[threadIdx.x] = load_streaming(in + threadIdx.x);
}
