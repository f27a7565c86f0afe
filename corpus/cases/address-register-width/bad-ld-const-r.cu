// address-register-width: ld.const (a 64-bit state space) with a 32-bit register address (here a
// truncated generic address). ptxas (nvcc 13.0, sm_90a) accepted this form.
#include <cstdint>

__constant__ float coeffs[64];

__device__ float coeff(unsigned byte_offset) {
  float c;
  asm volatile("ld.const.f32 %0, [%1];"
               : "=f"(c)
               : "r"(byte_offset)  // expect: address-register-width
               : "memory");
  return c;
}

__global__ void scale(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= coeff((unsigned)(size_t)&coeffs[i & 63]);
}
