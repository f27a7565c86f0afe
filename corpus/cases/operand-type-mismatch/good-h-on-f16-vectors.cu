// Correct: "h" on .f16 operands, "r" on .f16x2, and vector elements checked one by one
// (ld.shared.v4.f32 into "f", st.shared.v2.f32 from "r").
// gpu-good: compiles
#include <cstdint>
#include <cuda_fp16.h>

__device__ unsigned short fma_half(unsigned short a, unsigned short b, unsigned short c) {
  unsigned short r;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r) : "h"(a), "h"(b), "h"(c));
  return r;
}

__device__ unsigned add_half2(unsigned a, unsigned b) {
  unsigned r;
  asm("add.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ float4 ld4(uint32_t a) {
  float4 v;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(a)
               : "memory");
  return v;
}

__device__ void st2(uint32_t a, unsigned x_bits, unsigned y_bits) {
  asm volatile("st.shared.v2.f32 [%0], {%1, %2};" :: "r"(a), "r"(x_bits), "r"(y_bits) : "memory");
}

__global__ void k(const unsigned short* h, unsigned* h2, float4* out) {
  __shared__ float4 s[32];
  unsigned t = threadIdx.x & 31;
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&s[t]));
  st2(a, __float_as_uint(1.0f), __float_as_uint(2.0f));
  st2(a + 8, __float_as_uint(3.0f), __float_as_uint(4.0f));
  __syncthreads();
  out[t] = ld4(a);
  h2[t] = add_half2(h2[t], h2[t + 32]) + fma_half(h[t], h[t + 1], h[t + 2]);
}
