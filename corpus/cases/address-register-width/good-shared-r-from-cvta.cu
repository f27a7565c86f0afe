// Correct: a 32-bit shared-window address from __cvta_generic_to_shared passed with "r" to
// ld.shared / st.shared.
// gpu-good: compiles
#include <cstdint>

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void st_shared(uint32_t addr, uint32_t v) {
  asm volatile("st.shared.u32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t ld_shared(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}

__global__ void reverse_block(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t buf[256];
  st_shared(smem_addr(&buf[threadIdx.x]), in[blockIdx.x * 256 + threadIdx.x]);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = ld_shared(smem_addr(&buf[255 - threadIdx.x]));
}
