// address-register-width: prefetch.global with a 32-bit address. prefetch needs no "memory"
// clobber, but its address is still a 64-bit global address.
// gpu: nvcc -arch=sm_90 fails: ptxas "Program uses 32-bit address ..." then "32-Bit ABI ... is not supported on sm_90 or higher" (measured, nvcc 13.0.88)
// gpu-bad: ptxas "Program uses 32-bit address"
// gpu-bad: ptxas "32-Bit ABI"
#include <cstdint>

__device__ __forceinline__ void warm_l2(uint32_t line_addr) {
  asm volatile("prefetch.global.L2 [%0];"
               :: "r"(line_addr));  // expect: address-register-width
}

__global__ void touch(const float* data, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1024 < n) warm_l2(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(data + i + 1024)));
  if (i < n) out[i] = data[i] * 2.0f;
}
