// missing-memory-clobber (warning): the twin of `bad-info-loads-then-store-of-their-values.cu`
// whose C++ store after the non-volatile load does not use the loaded value: the compiler may
// move the store above the load, which then reads the new byte.
#include <cstdint>

__device__ unsigned int load_then_clear(uint8_t* p) {
  unsigned int a;
  asm("ld.global.cs.u8 %0, [%1];" : "=r"(a) : "l"(p));  // expect: missing-memory-clobber(warning), generic-address(info), prefer-intrinsic(info)
  p[0] = 0;
  return a;
}

__global__ void drain(unsigned int* out, uint8_t* bytes) {
  out[threadIdx.x] = load_then_clear(bytes + threadIdx.x);
}
