// missing-operand-comma: named operands with the comma missing between them.
__device__ float axpy(float a, float x, float y) {
  float r;
  asm("{\n\t"
      ".reg .f32 t;\n\t"
      "mul.f32 t, %1, %2;\n\t"
      "add.f32 %0, t, %3;\n\t"
      "}"
      : [r] "=f"(r)
      : [a] "f"(a), [x] "f"(x)
        [y] "f"(y));  // expect: missing-operand-comma
  return r;
}

__global__ void k(const float* x, float* y, float a) {
  y[threadIdx.x] = axpy(a, x[threadIdx.x], y[threadIdx.x]);
}
