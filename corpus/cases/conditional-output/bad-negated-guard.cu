// conditional-output: the write is guarded by a negated predicate (@!p); still only on some paths.
__device__ float clamp_low(float x, float lo) {
  float r = x;
  asm("{\n\t"
      ".reg .pred below;\n\t"
      "setp.lt.f32 below, %1, %2;\n\t"
      "@!below mov.f32 %0, %1;\n\t"  // expect: conditional-output
      "}"
      : "=f"(r)
      : "f"(x), "f"(lo));
  return r;
}

__global__ void k(float* v) {
  v[threadIdx.x] = clamp_low(v[threadIdx.x], 0.0f);
}
