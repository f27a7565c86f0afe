// operand-type-mismatch: a 32-bit "r" register as a source of add.u16 (only ld/st/cvt accept a
// wider register).
// gpu: ptxas rejects: Arguments mismatch for instruction 'add'
// gpu-bad: ptxas "Arguments mismatch for instruction 'add'"
__device__ unsigned short add16(unsigned short a, unsigned b) {
  unsigned short r;
  asm("add.u16 %0, %1, %2;"
      : "=h"(r)
      : "h"(a),
        "r"(b));  // expect: operand-type-mismatch
  return r;
}

__global__ void k(unsigned short* v) {
  v[threadIdx.x] = add16(v[threadIdx.x], threadIdx.x);
}
