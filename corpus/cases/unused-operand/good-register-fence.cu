// Correct: an empty template with operands is the register-fence idiom; it keeps the compiler
// from moving or folding x across this point.
__device__ float accumulate(const float* v, int n) {
  float x = 0.0f;
  for (int i = 0; i < n; ++i) {
    x += v[i];
    asm volatile("" : "+f"(x) :: "memory");
  }
  return x;
}

__device__ unsigned pin(unsigned y) {
  asm volatile("" :: "r"(y));
  return y;
}

__global__ void k(const float* v, float* out, unsigned* u) {
  out[threadIdx.x] = accumulate(v, 16);
  u[threadIdx.x] = pin(threadIdx.x * 7u);
}
