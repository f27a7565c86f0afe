// Correct: hex, float (0f...) and double (0d...) immediates, negative numbers, // and /* */
// comments inside the PTX.
// gpu-good: compiles
__device__ float poly(float x) {
  float r;
  asm("{\n\t"
      ".reg .f32 t;  // scratch\n\t"
      "mul.f32 t, %1, 0f3F000000;  /* x * 0.5 */\n\t"
      "add.f32 %0, t, 0fBF800000;  // - 1.0\n\t"
      "}"
      : "=f"(r)
      : "f"(x));
  return r;
}

__device__ double scale(double x) {
  double r;
  asm("mul.f64 %0, %1, 0d4000000000000000;" : "=d"(r) : "d"(x));
  return r;
}

__device__ int offset(int x) {
  int r;
  asm("add.s32 %0, %1, -17;\n\t" : "=r"(r) : "r"(x));
  return r;
}

__device__ unsigned mask(unsigned x) {
  unsigned r;
  asm("and.b32 %0, %1, 0xFF00FF00;" : "=r"(r) : "r"(x));
  return r;
}

__global__ void k(float* f, double* d, int* i, unsigned* u) {
  unsigned t = threadIdx.x;
  f[t] = poly(f[t]);
  d[t] = scale(d[t]);
  i[t] = offset(i[t]);
  u[t] = mask(u[t]);
}
