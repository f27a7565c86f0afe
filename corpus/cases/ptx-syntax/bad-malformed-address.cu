// ptx-syntax: an address with a dangling '+'.
// gpu: nvcc -arch=sm_90 fails: ptxas "Parsing error near ']': syntax error" (measured)
// gpu-bad: ptxas "Parsing error near ']': syntax error"
#include <cstdint>

__device__ uint32_t next_word(uint32_t a) {
  uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1+];"  // expect: ptx-syntax
               : "=r"(v)
               : "r"(a)
               : "memory");
  return v;
}

__global__ void k(uint32_t* out) {
  __shared__ uint32_t s[64];
  s[threadIdx.x & 63] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = next_word(static_cast<uint32_t>(__cvta_generic_to_shared(&s[threadIdx.x & 31])));
}
