// operand-size-mismatch: "r" (32-bit) bound to a size_t.
// gpu: nvcc rejects: asm operand type size(8) does not match type/size implied by constraint 'r'
// gpu-bad: nvcc "asm operand type size(8) does not match type/size implied by constraint 'r'"
#include <cstddef>
#include <cstdint>

__device__ uint32_t plus_one(size_t n) {
  uint32_t r;
  asm("add.u32 %0, %1, 1;"
      : "=r"(r)
      : "r"(n));  // expect: operand-size-mismatch
  return r;
}

__global__ void count_up(uint32_t* out, size_t base) {
  out[threadIdx.x] = plus_one(base + threadIdx.x);
}
