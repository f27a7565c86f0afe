// unused-operand (info): a named input the template never mentions (the bias is lost, but
// only the name says so: an ignored input changes no result by itself).
__device__ float scale_bias(float x, float s, float b) {
  float r;
  asm("mul.f32 %0, %1, %2;"
      : [r] "=f"(r)
      : [x] "f"(x), [s] "f"(s),
        [b] "f"(b));  // expect: unused-operand(info)
  return r;
}

__global__ void k(float* v) {
  v[threadIdx.x] = scale_bias(v[threadIdx.x], 2.0f, 0.5f);
}
