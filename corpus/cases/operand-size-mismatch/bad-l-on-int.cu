// operand-size-mismatch: "l" (64-bit) bound to an int.
// gpu: nvcc rejects: asm operand type size(4) does not match type/size implied by constraint 'l'
// gpu-bad: nvcc "asm operand type size(4) does not match type/size implied by constraint 'l'"
#include <cstdint>

__device__ uint64_t offset_by(uint64_t base, int delta) {
  uint64_t r;
  asm("add.u64 %0, %1, %2;"
      : "=l"(r)
      : "l"(base),
        "l"(delta));  // expect: operand-size-mismatch
  return r;
}

__global__ void offsets(uint64_t* out) {
  out[threadIdx.x] = offset_by(1000ull, static_cast<int>(threadIdx.x));
}
