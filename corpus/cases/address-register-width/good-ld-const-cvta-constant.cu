// Correct: a 32-bit .const address made by __cvta_generic_to_constant. .const addresses fit in
// 32 bits and ptxas (nvcc 13.0, sm_90a) accepts them in a 32-bit register.
// gpu: compiles for sm_90 (measured, nvcc 13.0.88)
// gpu-good: compiles
#include <cstdint>

__constant__ float coeffs[64];

__device__ float coeff(int i) {
  float c;
  asm volatile("ld.const.f32 %0, [%1];"
               : "=f"(c)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_constant(&coeffs[i])))
               : "memory");
  return c;
}

__global__ void scale(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= coeff(i & 63);
}
