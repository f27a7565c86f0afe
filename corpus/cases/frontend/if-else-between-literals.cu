// Front end: #if / #else between the string literals inside asm(...). The finding sits in a
// literal outside the conditional part, so it is the same whichever branch is taken.
#include <cstdint>

__device__ uint32_t load_scaled(const uint32_t* p, uint32_t k) {
  uint32_t v;
  asm volatile("{\n\t"
               ".reg .u32 t;\n\t"
#if defined(USE_VOLATILE_LOADS)
               "ld.volatile.u32 t, [%1];\n\t"
#else
               "ld.u32 t, [%1];\n\t"
#endif
               "mul.lo.u32 %0, t, %n2;\n\t"  // expect: unsupported-modifier
               "}"
               : "=r"(v)
               : "l"(p), "r"(k)
               : "memory");
  return v;
}

__global__ void k(const uint32_t* in, uint32_t* out) {
  out[threadIdx.x] = load_scaled(in + threadIdx.x, 3u);
}
