// Front end: clobber lists with several entries ("cc", "memory", register names), an empty output
// list with inputs, and an empty input list with clobbers.
#include <cstdint>

__device__ void store_pair(uint32_t* p, uint32_t a, uint32_t b) {
  asm volatile("st.v2.u32 [%0], {%1, %2};" : : "l"(p), "r"(a), "r"(b) : "cc", "memory");
}

__device__ uint32_t sum_carry(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b) : "cc");
  return r;
}

__device__ uint32_t lane_bits() {
  uint32_t r;
  asm volatile("mov.u32 %0, %pm1;" : "=r"(r) : : "memory");  // expect: percent-escape
  return r;
}

__global__ void k(uint32_t* out) {
  store_pair(out + 2 * threadIdx.x, sum_carry(threadIdx.x, 3u), lane_bits());
}
