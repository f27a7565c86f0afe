// Correct: the address inputs of a load and of a store are only read; the loaded values go to
// outputs.
#include <cstdint>

__device__ uint2 ld2(uint32_t a) {
  uint2 v;
  asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "r"(a) : "memory");
  return v;
}

__device__ void st2(uint32_t a, uint2 v) {
  asm volatile("st.shared.v2.u32 [%0], {%1, %2};" :: "r"(a), "r"(v.x), "r"(v.y) : "memory");
}

__global__ void k(const uint2* in, uint2* out) {
  __shared__ uint2 s[64];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&s[threadIdx.x & 63]));
  st2(a, in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = ld2(a ^ 8u);
}
