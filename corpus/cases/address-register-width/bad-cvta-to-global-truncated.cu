// address-register-width: (uint32_t)__cvta_generic_to_global(p) truncates a 64-bit global
// address before red.global uses it.
// gpu: nvcc -arch=sm_90 fails: ptxas "Program uses 32-bit address ..." then "32-Bit ABI ... is not supported on sm_90 or higher" (measured, nvcc 13.0.88)
// gpu-bad: ptxas "Program uses 32-bit address"
// gpu-bad: ptxas "32-Bit ABI"
#include <cstdint>

__device__ void accumulate(float* total, float v) {
  asm volatile("red.global.add.f32 [%0], %1;"
               :: "r"((uint32_t)__cvta_generic_to_global(total)),  // expect: address-register-width
                  "f"(v)
               : "memory");
}

__global__ void reduce_all(const float* x, float* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) accumulate(total, x[i]);
}
