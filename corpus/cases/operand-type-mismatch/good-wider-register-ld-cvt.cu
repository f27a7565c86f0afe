// Correct: ld and cvt accept a register wider than the instruction type: ld.u16 into "r",
// ld.u32 into "l", cvt.f32.f16 from an "r" register.
// gpu-good: compiles
#include <cstdint>

__device__ uint32_t load_u16(const uint16_t* p) {
  uint32_t v;
  asm volatile("ld.u16 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ uint64_t load_u32_wide(const uint32_t* p) {
  uint64_t v;
  asm volatile("ld.u32 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

__device__ float half_bits_to_float(uint32_t bits) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "r"(bits));
  return f;
}

__global__ void k(const uint16_t* a, const uint32_t* b, float* out) {
  unsigned t = threadIdx.x;
  out[t] = half_bits_to_float(load_u16(a + t)) + static_cast<float>(load_u32_wide(b + t));
}
