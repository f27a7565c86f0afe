// operand-size-mismatch: "r" on a float and "f" on an unsigned. The sizes agree, but nvcc 13
// rejects a constraint of the other kind: "asm operand type size(4) does not match type/size
// implied by constraint 'r'".
// gpu: nvcc -arch=sm_90 fails at the front end on both operands
__device__ unsigned float_bits(float x) {
  unsigned bits;
  asm("mov.b32 %0, %1;" : "=r"(bits) : "r"(x));  // expect: operand-size-mismatch
  return bits;
}

__device__ float from_bits(unsigned u) {
  float f;
  asm("mov.b32 %0, %1;" : "=f"(f) : "f"(u));  // expect: operand-size-mismatch
  return f;
}

__device__ double twice(double d) {
  double r;
  asm("add.f64 %0, %1, %1;" : "=d"(r) : "l"(d));  // expect: operand-size-mismatch
  return r;
}

__global__ void k(float* v, unsigned* u, double* d) {
  u[threadIdx.x] = float_bits(v[threadIdx.x]);
  v[threadIdx.x] = from_bits(u[threadIdx.x]);
  d[threadIdx.x] = twice(d[threadIdx.x]);
}
