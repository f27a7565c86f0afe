// Correct: .shared::cluster and .shared::cta addresses are 32-bit: "r" is right.
// gpu-good: compiles
#include <cstdint>

__device__ __forceinline__ uint32_t ld_cluster(uint32_t addr) {
  uint32_t v = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
#endif
  return v;
}

__device__ __forceinline__ void st_cta(uint32_t addr, uint32_t v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("st.shared::cta.u32 [%0], %1;" :: "r"(addr), "r"(v) : "memory");
#endif
}

__global__ void own_slot(uint32_t* out) {
  __shared__ uint32_t slot[32];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&slot[threadIdx.x & 31]));
  st_cta(a, threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = ld_cluster(a);
}
