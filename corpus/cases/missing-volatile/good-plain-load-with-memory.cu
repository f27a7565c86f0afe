// Correct: a plain (non-volatile) shared load with "memory", not polled: nothing to flag.
// gpu-launch: k<<<1, 64>>>(in: u32[64] = iota, out: u32[64] = 0)
// gpu-good: out[0] == 63 && out[63] == 0
#include <cstdint>

__device__ uint32_t ld_shared(uint32_t a) {
  uint32_t v;
  asm("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}

__global__ void k(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = ld_shared(static_cast<uint32_t>(__cvta_generic_to_shared(&s[63 - threadIdx.x])));
}
