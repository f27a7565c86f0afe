// address-register-width: ld.const given a generic pointer cut to 32 bits. ptxas (nvcc 13.0,
// sm_90a) accepts 32-bit .const addresses, but the low bits of a generic address are not an
// address in the constant window: __cvta_generic_to_constant makes one.
// gpu: compiles (ptxas accepts the 32-bit .const address); with coeffs[] = 2.0 and v[] = 1.0, launch scale<<<1,64>>>(v, 64): v[i] is 0.0 instead of 2.0, the truncated generic address is not the constant (measured)
#include <cstdint>

__constant__ float coeffs[64];

__device__ float coeff(int i) {
  float c;
  asm volatile("ld.const.f32 %0, [%1];"
               : "=f"(c)
               : "r"((unsigned)(size_t)&coeffs[i])  // expect: address-register-width
               : "memory");
  return c;
}

__global__ void scale(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= coeff(i & 63);
}
