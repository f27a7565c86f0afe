// Correct: "l" (.b64) fits an .f64 operand, "d" (.f64) fits a .b64 operand.
// gpu-good: compiles
#include <cstdint>

__device__ double add_f64_bits(double a, double b) {
  uint64_t r;
  asm("add.f64 %0, %1, %2;"
      : "=l"(r)
      : "l"(__double_as_longlong(a)), "l"(__double_as_longlong(b)));
  return __longlong_as_double(static_cast<long long>(r));
}

__device__ double flip_sign(double x) {
  double r;
  asm("xor.b64 %0, %1, 0x8000000000000000;" : "=d"(r) : "d"(x));
  return r;
}

__global__ void k(double* v) {
  v[threadIdx.x] = add_f64_bits(v[threadIdx.x], 1.0) + flip_sign(v[threadIdx.x]);
}
