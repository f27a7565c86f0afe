// Correct: every asm that reads, writes or orders memory says "memory".
#include <cstdint>

__device__ uint32_t ld_shared(uint32_t a) {
  uint32_t v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
  return v;
}

__device__ void st_shared(uint32_t a, uint32_t v) {
  asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory");
}

__device__ void named_sync() {
  asm volatile("bar.arrive 2, 64;" ::: "memory");
}

__device__ unsigned ticket(unsigned* next) {
  unsigned t;
  asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(t) : "l"(next) : "memory");
  return t;
}

__global__ void k(unsigned* next, uint32_t* out) {
  __shared__ uint32_t s[64];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&s[threadIdx.x & 63]));
  st_shared(a, ticket(next));
  if (threadIdx.x < 32) named_sync();
  __syncthreads();
  out[threadIdx.x] = ld_shared(a);
}
