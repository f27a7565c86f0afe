// write-to-input: an input reused as a scratch register for an intermediate result.
__device__ float sum_squared(float a, float b, float scratch) {
  float r;
  asm("{\n\t"
      "add.f32 %3, %1, %2;\n\t"  // expect: write-to-input
      "mul.f32 %0, %3, %3;\n\t"
      "}"
      : "=f"(r)
      : "f"(a), "f"(b), "f"(scratch));
  return r;
}

__global__ void k(const float2* in, float* out) {
  float2 v = in[threadIdx.x];
  out[threadIdx.x] = sum_squared(v.x, v.y, 0.0f);
}
