// Correct: vector st.shared / ld.shared with 32-bit shared addresses, including an offset inside
// the brackets.
// gpu-good: compiles
#include <cstdint>

__device__ __forceinline__ void st4(uint32_t a, uint4 v) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};"
               :: "r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

__device__ __forceinline__ uint2 ld2_upper(uint32_t a) {
  uint2 r;
  asm volatile("ld.shared.v2.u32 {%0, %1}, [%2+8];" : "=r"(r.x), "=r"(r.y) : "r"(a) : "memory");
  return r;
}

__global__ void shuffle_halves(const uint4* in, uint2* out) {
  __shared__ uint4 s[64];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&s[threadIdx.x]));
  st4(a, in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = ld2_upper(a);
}
