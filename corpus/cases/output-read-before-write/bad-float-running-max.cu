// output-read-before-write: a running maximum kept in an "=f" output.
__device__ float running_max(const float* v, int n) {
  float m = -1.0e30f;
  for (int i = 0; i < n; ++i) {
    asm("max.f32 %0, %0, %1;"  // expect: output-read-before-write
        : "=f"(m)
        : "f"(v[i]));
  }
  return m;
}

__global__ void k(const float* v, float* out) {
  out[threadIdx.x] = running_max(v + threadIdx.x * 8, 8);
}
