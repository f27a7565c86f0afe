// Front end: in a __host__ __device__ function, the #if !defined(__CUDA_ARCH__) branch is host
// code (x86 asm, silent) and the #else branch is PTX.
#include <cstdint>

__host__ __device__ inline uint32_t rotate_left(uint32_t x, uint32_t n) {
#if !defined(__CUDA_ARCH__)
  asm("roll %%cl, %0" : "+r"(x) : "c"(n));
  return x;
#else
  uint32_t r;
  asm("shf.l.wrap.b32 %0, %1, %1, %n2;" : "=r"(r) : "r"(x), "r"(n));  // expect: unsupported-modifier, prefer-intrinsic(info)
  return r;
#endif
}

__global__ void k(uint32_t* v) {
  v[threadIdx.x] = rotate_left(v[threadIdx.x], 13u);
}

uint32_t host_rotate(uint32_t x) {
  return rotate_left(x, 7u);
}
