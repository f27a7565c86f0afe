// Packed half-precision arithmetic on .f16x2 registers held in "r", scalar halves in "h",
// conversions, and the empty-template register fence that keeps a partial sum in place.
#include <cstdint>
#include <cuda_fp16.h>

__device__ __forceinline__ uint32_t h2_fma(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t d;
  asm("fma.rn.f16x2 %0, %1, %2, %3;\n" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

__device__ __forceinline__ uint32_t pack_f32x2(float lo, float hi) {
  uint32_t r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("cvt.rn.f16x2.f32 %0, %2, %1;\n" : "=r"(r) : "f"(lo), "f"(hi));
#else
  __half2 h = __floats2half2_rn(lo, hi);
  r = *reinterpret_cast<uint32_t*>(&h);
#endif
  return r;
}

__device__ __forceinline__ float half_to_float(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(h));
  return f;
}

__device__ __forceinline__ float low_half_as_float(uint32_t h2) {
  unsigned short lo;
  asm("{\n\t"
      ".reg .b16 hi;\n\t"
      "mov.b32 {%0, hi}, %1;\n\t"
      "}"
      : "=h"(lo)
      : "r"(h2));
  return half_to_float(lo);
}

__global__ void h2_axpy(const uint32_t* x, uint32_t* y, const float* scale, float* partial, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t a = pack_f32x2(scale[0], scale[0]);
  const uint32_t r = h2_fma(a, x[i], y[i]);
  y[i] = r;
  float s = low_half_as_float(r);
  asm volatile("" : "+f"(s) :: "memory");
  partial[i] = s * 0.5f;
}
