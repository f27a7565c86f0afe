// Correct: accumulators declared "+r"/"+f" are loaded before the asm.
__device__ unsigned accumulate(unsigned x, unsigned a) {
  asm("add.u32 %0, %0, %1;" : "+r"(x) : "r"(a));
  return x;
}

__device__ float running_max(const float* v, int n) {
  float m = -1.0e30f;
  for (int i = 0; i < n; ++i) asm("max.f32 %0, %0, %1;" : "+f"(m) : "f"(v[i]));
  return m;
}

__global__ void k(const float* v, float* out, unsigned* u) {
  out[threadIdx.x] = running_max(v + threadIdx.x * 8, 8);
  u[threadIdx.x] = accumulate(threadIdx.x, 5u);
}
