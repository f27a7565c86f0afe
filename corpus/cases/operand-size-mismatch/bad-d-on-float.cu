// operand-size-mismatch: "d" (64-bit double register) bound to a float.
__device__ double scale(double x, float s) {
  double r;
  asm("mul.f64 %0, %1, %2;"
      : "=d"(r)
      : "d"(x),
        "d"(s));  // expect: operand-size-mismatch
  return r;
}

__global__ void scale_all(double* v, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = scale(v[i], s);
}
