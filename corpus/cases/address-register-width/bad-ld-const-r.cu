// address-register-width: ld.const (a 64-bit state space) with a 32-bit register address (here a
// truncated generic address). ptxas (nvcc 13.0, sm_90a) accepted this form.
// gpu: compiles (ptxas accepts the 32-bit .const address); with coeffs[] = 2.0 and v[] = 1.0, launch scale<<<1,64>>>(v, 64): v[i] is 0.0 instead of 2.0, the truncated generic address is not the constant (measured)
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
