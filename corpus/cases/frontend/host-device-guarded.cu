// Front end: __host__ __device__ functions whose PTX sits under #ifdef __CUDA_ARCH__ /
// #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 — device code; the host branch is C++.
#include <cstdint>

__host__ __device__ inline uint32_t bswap(uint32_t x) {
#ifdef __CUDA_ARCH__
  uint32_t r;
  asm("prmt.b32 %0, %1, 0, %n2;" : "=r"(r) : "r"(x), "r"(0x0123u));  // expect: unsupported-modifier, prefer-intrinsic(info)
  return r;
#else
  return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
#endif
}

__host__ __device__ inline void relax() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("nanosleep.u32 %0;" :: "r"(100u), "r"(0u));  // expect: prefer-intrinsic(info), unused-operand(info)
#endif
}

__global__ void k(uint32_t* v) {
  relax();
  v[threadIdx.x] = bswap(v[threadIdx.x]);
}

uint32_t host_side(uint32_t x) {
  relax();
  return bswap(x);
}
