// address-register-width: ld.global given a 32-bit address made by (unsigned)(size_t)p.
// gpu: nvcc -arch=sm_90 fails: ptxas warns "Program uses 32-bit address ... conflicting with .address_size 64", then "32-Bit ABI ... is not supported on sm_90 or higher"
// gpu-bad: ptxas "Program uses 32-bit address"
// gpu-bad: ptxas "is not supported on sm_90 or higher"
#include <cstdint>

__device__ __forceinline__ void load_pair(const unsigned* p, unsigned& lo, unsigned& hi) {
  asm volatile("ld.global.v2.u32 {%0, %1}, [%2];"
               : "=r"(lo), "=r"(hi)
               : "r"((unsigned)(size_t)p)  // expect: address-register-width
               : "memory");
}

__global__ void sum_pairs(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned lo, hi;
    load_pair(in + 2 * i, lo, hi);
    out[i] = lo + hi;
  }
}
