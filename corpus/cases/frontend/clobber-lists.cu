// Front end: clobber lists in their different positions: an empty output list with inputs and a
// clobber, an empty input list with clobbers, and a clobber list after a blank operand list. (nvcc
// 13 rejects a "cc" clobber in device code, so only "memory" appears here.)
#include <cstdint>

__device__ void store_pair(uint32_t* p, uint32_t a, uint32_t b) {
  asm volatile("st.v2.u32 [%0], {%1, %2};" : : "l"(p), "r"(a), "r"(b) : "memory");
}

__device__ void full_barrier() {
  asm volatile("bar.sync 0;" : : : "memory");  // expect: prefer-intrinsic(info)
}

__device__ uint32_t pm_counter() {
  uint32_t r;
  asm volatile("mov.u32 %0, %pm1;" : "=r"(r) : : "memory");  // expect: percent-escape
  return r;
}

__global__ void k(uint32_t* out) {
  store_pair(out + 2 * threadIdx.x, threadIdx.x, pm_counter());
  full_barrier();
}
