// Correct: .shared instructions given shared-window addresses, 32-bit ("r") or 64-bit ("l").
#include <cstdint>

__device__ float read_shared32(const float* slot) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];"
               : "=f"(v)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(slot)))
               : "memory");
  return v;
}

__device__ void write_shared64(float* slot, float v) {
  asm volatile("st.shared.f32 [%0], %1;" :: "l"(__cvta_generic_to_shared(slot)), "f"(v) : "memory");
}

__global__ void k(const float* in, float* out) {
  __shared__ float s[128];
  write_shared64(&s[threadIdx.x], in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = read_shared32(&s[127 - threadIdx.x]);
}
