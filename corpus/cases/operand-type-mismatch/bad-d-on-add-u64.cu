// operand-type-mismatch: "d" (.f64) as a source of an integer add.u64: "d" only fits .f64/.b64.
// gpu: nvcc -arch=sm_90 fails: ptxas "Arguments mismatch for instruction 'add'" (measured)
// gpu-bad: ptxas "Arguments mismatch for instruction 'add'"
#include <cstdint>

__device__ uint64_t add_bits64(uint64_t a, double b) {
  uint64_t r;
  asm("add.u64 %0, %1, %2;"
      : "=l"(r)
      : "l"(a),
        "d"(b));  // expect: operand-type-mismatch
  return r;
}

__global__ void k(const double* d, uint64_t* out) {
  out[threadIdx.x] = add_bits64(threadIdx.x, d[threadIdx.x]);
}
