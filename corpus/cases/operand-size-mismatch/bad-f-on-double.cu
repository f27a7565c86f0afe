// operand-size-mismatch: "f" (32-bit float register) bound to a double.
#include <cstdint>

__device__ float add_mixed(float a, double b) {
  float r;
  asm("add.f32 %0, %1, %2;"
      : "=f"(r)
      : "f"(a),
        "f"(b));  // expect: operand-size-mismatch
  return r;
}

__global__ void mix(const float* a, const double* b, float* out) {
  out[threadIdx.x] = add_mixed(a[threadIdx.x], b[threadIdx.x]);
}
