// missing-memory-clobber (info): a plain store helper: the asm alone does not show C++ touching
// the stored location (the caller does, after inlining), so this is info; "memory" still belongs.
#include <cstdint>

__device__ void put(uint32_t a, uint32_t v) {
  asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v));  // expect: missing-memory-clobber(info)
}

__global__ void k(uint32_t* out) {
  __shared__ uint32_t s[32];
  s[threadIdx.x & 31] = 1u;
  put(static_cast<uint32_t>(__cvta_generic_to_shared(&s[threadIdx.x & 31])), threadIdx.x);
  out[threadIdx.x] = s[threadIdx.x & 31];
}
