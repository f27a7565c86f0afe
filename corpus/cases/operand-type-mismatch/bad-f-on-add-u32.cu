// operand-type-mismatch: an "f" (.f32) register as a source of add.u32.
// gpu: ptxas rejects: Arguments mismatch for instruction 'add'
// gpu-bad: ptxas "Arguments mismatch for instruction 'add'"
__device__ unsigned add_bits(unsigned a, float b) {
  unsigned r;
  asm("add.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"(a),
        "f"(b));  // expect: operand-type-mismatch
  return r;
}

__global__ void k(const float* f, unsigned* out) {
  out[threadIdx.x] = add_bits(threadIdx.x, f[threadIdx.x]);
}
