// operand-type-mismatch: a 32-bit "r" register as a source of add.f64.
// gpu: ptxas rejects: Arguments mismatch for instruction 'add'
// gpu-bad: ptxas "Arguments mismatch for instruction 'add'"
__device__ double add_wrong(double a, unsigned b_bits) {
  double r;
  asm("add.f64 %0, %1, %2;"
      : "=d"(r)
      : "d"(a),
        "r"(b_bits));  // expect: operand-type-mismatch
  return r;
}

__global__ void k(double* v) {
  v[threadIdx.x] = add_wrong(v[threadIdx.x], 0x3f800000u);
}
