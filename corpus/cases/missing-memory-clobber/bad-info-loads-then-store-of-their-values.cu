// missing-memory-clobber (info): three non-volatile byte loads without "memory", then one C++
// store of a value computed from all three: the store needs the loads' results, so the
// compiler cannot move it above any of them, and nothing else beside them is a store.
#include <cstdint>

__device__ void load_code(unsigned int code[1], const uint8_t* p) {
  unsigned int a, b, c;
  asm("ld.global.cs.u8 %0, [%1 + 0];" : "=r"(a) : "l"(p));  // expect: missing-memory-clobber(info), generic-address(info), prefer-intrinsic(info)
  asm("ld.global.cs.u8 %0, [%1 + 1];" : "=r"(b) : "l"(p));  // expect: missing-memory-clobber(info), generic-address(info), prefer-intrinsic(info)
  asm("ld.global.cs.u8 %0, [%1 + 2];" : "=r"(c) : "l"(p));  // expect: missing-memory-clobber(info), generic-address(info), prefer-intrinsic(info)
  code[0] = (c << 16) | (b << 8) | a;
}

__global__ void gather(unsigned int* codes, const uint8_t* bytes) {
  load_code(codes + threadIdx.x, bytes + 3 * threadIdx.x);
}
