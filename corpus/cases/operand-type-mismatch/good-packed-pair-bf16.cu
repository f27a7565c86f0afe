// Correct: registers packed into a wider operand (mov.b64 from two "r", mov.b32 into two "h"),
// a destination with a predicate (shfl.sync d|p) given an "f" register, and "h" on a .bf16
// result: every register fits the type the instruction expects for it.
// gpu: compiles for sm_90 (measured, nvcc 13.0.88)
// gpu-good: compiles
#include <cstdint>

__device__ uint64_t join(uint32_t lo, uint32_t hi) {
  uint64_t r;
  asm("mov.b64 %0, {%1, %2};" : "=l"(r) : "r"(lo), "r"(hi));
  return r;
}

__device__ void split(uint32_t w, unsigned short& lo, unsigned short& hi) {
  asm("mov.b32 {%0, %1}, %2;" : "=h"(lo), "=h"(hi) : "r"(w));
}

__device__ float from_lane0(float v, unsigned& valid) {
  float r;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "shfl.sync.idx.b32 %0|p, %2, 0, 0x1f, 0xffffffff;\n\t"  // expect: prefer-cuda-ptx(info)
               "selp.u32 %1, 1, 0, p;\n\t"
               "}"
               : "=f"(r), "=r"(valid)
               : "f"(v));
  return r;
}

__device__ unsigned short to_bf16_bits(float f) {
  unsigned short h = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
#endif
  return h;
}

__global__ void k(const uint32_t* in, uint64_t* out, float* f, unsigned short* h) {
  unsigned t = threadIdx.x;
  unsigned short a, b;
  split(in[t], a, b);
  unsigned valid;
  f[t] = from_lane0(f[t], valid);
  out[t] = join(in[t], valid) + a + b;
  h[t] = to_bf16_bits(f[t]);
}
