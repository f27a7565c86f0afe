// address-register-width: atom.global with a 32-bit register as its address.
// gpu: nvcc -arch=sm_90 fails: ptxas warns "Program uses 32-bit address ... conflicting with .address_size 64", then "32-Bit ABI ... is not supported on sm_90 or higher" (measured, nvcc 13.0.88)
// gpu-bad: ptxas "Program uses 32-bit address"
// gpu-bad: ptxas "is not supported on sm_90 or higher"
#include <cstdint>

__device__ uint32_t fetch_add(uint32_t addr32, uint32_t delta) {
  uint32_t old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;"
               : "=r"(old)
               : "r"(addr32),  // expect: address-register-width
                 "r"(delta)
               : "memory");
  return old;
}

__global__ void histogram(const uint8_t* bytes, uint32_t* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uint32_t base = (uint32_t)(uintptr_t)bins;
    fetch_add(base + 4u * bytes[i], 1u);
  }
}
