// operand-size-mismatch: "h" (16-bit) bound to a float instead of the half's bits.
__device__ float widen_half(float h_bits) {
  float r;
  asm("cvt.f32.f16 %0, %1;"
      : "=f"(r)
      : "h"(h_bits));  // expect: operand-size-mismatch
  return r;
}

__global__ void widen_all(const float* in, float* out) {
  out[threadIdx.x] = widen_half(in[threadIdx.x]);
}
