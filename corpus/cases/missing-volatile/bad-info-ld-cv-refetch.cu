// missing-volatile (info): `ld.global.cv` asks for a fresh fetch each time it runs, and a
// non-volatile asm may be merged with an identical one; but nvcc 13 -O3 kept both loads of a
// helper called twice in straight-line code (measured: gpu-tests/measure/changing-reads.sh),
// and no loop runs it here.
#include <cstdint>

__device__ uint32_t read_flag(const uint32_t* flag) {
  uint32_t v;
  asm("ld.global.cv.u32 %0, [%1];"  // expect: missing-volatile(info), missing-memory-clobber, prefer-intrinsic(info)
      : "=r"(v) : "l"(flag));  // expect: generic-address(info)
  return v;
}

__global__ void wait_twice(const uint32_t* flag, uint32_t* seen) {
  uint32_t first = read_flag(flag);
  uint32_t second = read_flag(flag);
  seen[threadIdx.x] = second - first;
}
