// operand-type-mismatch: a 16-bit "h" register as a source of add.u32.
// gpu: ptxas rejects: Arguments mismatch for instruction 'add'
// gpu-bad: ptxas "Arguments mismatch for instruction 'add'"
__device__ unsigned add_short(unsigned a, unsigned short b) {
  unsigned r;
  asm("add.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"(a),
        "h"(b));  // expect: operand-type-mismatch
  return r;
}

__global__ void k(const unsigned short* s, unsigned* out) {
  out[threadIdx.x] = add_short(threadIdx.x, s[threadIdx.x]);
}
