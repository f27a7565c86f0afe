// Correct: generic ld/st with a 64-bit pointer ("l"), and ld.u32 into a 64-bit "l" register.
// gpu-good: compiles
#include <cstdint>

__device__ __forceinline__ uint64_t widen_load(const uint32_t* p) {
  uint64_t v;
  asm volatile("ld.u32 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store64(uint64_t* p, uint64_t v) {
  asm volatile("st.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

__global__ void widen(const uint32_t* in, uint64_t* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) store64(out + i, widen_load(in + i) * 3ull);
}
