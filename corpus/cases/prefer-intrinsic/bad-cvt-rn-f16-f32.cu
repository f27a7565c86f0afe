// prefer-intrinsic (info): cvt.rn.f16.f32 is __float2half_rn().
#include <cuda_fp16.h>

__device__ unsigned short to_half_bits(float f) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));  // expect: prefer-intrinsic(info)
  return h;
}

__global__ void k(const float* in, unsigned short* out) {
  out[threadIdx.x] = to_half_bits(in[threadIdx.x]);
}
