// Correct: forms with no intrinsic: mul.lo, mul.wide, plain add.f32/mul.f32 without a rounding
// modifier, cvt.f32.f16, bfe, bfi, lop3.
#include <cstdint>

__device__ uint64_t widen(uint32_t a, uint32_t b) {
  uint64_t r;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
  return r;
}

__device__ uint32_t low(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ float axpy(float a, float x, float y) {
  float r;
  asm("{\n\t"
      ".reg .f32 t;\n\t"
      "mul.f32 t, %1, %2;\n\t"
      "add.f32 %0, t, %3;\n\t"
      "}"
      : "=f"(r)
      : "f"(a), "f"(x), "f"(y));
  return r;
}

__device__ float from_half(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}

__device__ uint32_t fields(uint32_t a, uint32_t b) {
  uint32_t r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "bfe.u32 t, %1, 4, 8;\n\t"
      "bfi.b32 t, t, %2, 24, 8;\n\t"
      "lop3.b32 %0, t, %1, %2, 0x96;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(const uint32_t* in, uint64_t* out, float* f, const unsigned short* h) {
  unsigned t = threadIdx.x;
  out[t] = widen(in[t], 3u) + low(in[t], 5u) + fields(in[t], t);
  f[t] = axpy(2.0f, f[t], from_half(h[t]));
}
