// write-to-input: a load whose destination is an input operand (the outputs were forgotten).
#include <cstdint>

__device__ uint32_t read_slot(uint32_t addr) {
  uint32_t v = 0;
  asm volatile("ld.shared.u32 %1, [%0];"  // expect: write-to-input
               :: "r"(addr), "r"(v)
               : "memory");
  return v;
}

__global__ void k(uint32_t* out) {
  __shared__ uint32_t s[32];
  s[threadIdx.x & 31] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = read_slot(static_cast<uint32_t>(__cvta_generic_to_shared(&s[31 - (threadIdx.x & 31)])));
}
