// Correct: each constraint's size matches its C++ operand: h/unsigned short, r/int and unsigned,
// l/uint64_t and long long, f/float, d/double, and integer literals of the right size.
// gpu-good: compiles
#include <cstdint>

__device__ uint64_t combine(unsigned short h, int i, unsigned u, long long ll) {
  uint64_t r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      ".reg .u64 w;\n\t"
      "cvt.u32.u16 t, %1;\n\t"
      "add.u32 t, t, %2;\n\t"
      "add.u32 t, t, %3;\n\t"
      "cvt.u64.u32 w, t;\n\t"
      "add.u64 %0, w, %4;\n\t"
      "}"
      : "=l"(r)
      : "h"(h), "r"(i), "r"(u), "l"(ll));
  return r;
}

__device__ double fused(float a, double b) {
  double r;
  asm("{\n\t"
      ".reg .f64 t;\n\t"
      "cvt.f64.f32 t, %1;\n\t"
      "add.f64 %0, t, %2;\n\t"
      "}"
      : "=d"(r)
      : "f"(a), "d"(b));
  return r;
}

__device__ unsigned literal_add(unsigned x) {
  unsigned r;
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(7));
  return r;
}

__device__ uint64_t literal_add64(uint64_t x) {
  uint64_t r;
  asm("add.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(1ull << 40));
  return r;
}

__global__ void sizes(uint64_t* out, double* dout) {
  unsigned t = threadIdx.x;
  out[t] = combine(static_cast<unsigned short>(t), static_cast<int>(t), t, 5ll) +
           literal_add(t) + literal_add64(t);
  dout[t] = fused(1.5f, 2.25);
}
