// operand-size-mismatch must stay silent: each operand's register kind matches its C++ type;
// the bits cross between kinds through the CUDA intrinsics.
// gpu-good: compiles
__device__ unsigned float_bits(float x) {
  unsigned bits;
  asm("mov.b32 %0, %1;" : "=r"(bits) : "r"(__float_as_uint(x)));
  return bits;
}

__device__ float from_bits(unsigned u) {
  float f;
  asm("mov.b32 %0, %1;" : "=f"(f) : "f"(__uint_as_float(u)));
  return f;
}

__device__ double twice(double d) {
  double r;
  asm("add.f64 %0, %1, %1;" : "=d"(r) : "d"(d));
  return r;
}

__global__ void k(float* v, unsigned* u, double* d) {
  u[threadIdx.x] = float_bits(v[threadIdx.x]);
  v[threadIdx.x] = from_bits(u[threadIdx.x]);
  d[threadIdx.x] = twice(d[threadIdx.x]);
}
