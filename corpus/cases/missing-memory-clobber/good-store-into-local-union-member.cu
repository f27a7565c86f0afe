// Not loud: a non-volatile load beside stores into a member array of a local union (the
// thread's own registers): no other memory is written, so nothing can alias the load.
#include <cstdint>

typedef union {
  uint32_t u32[4];
  float f32[4];
} quad;

__device__ __forceinline__ uint32_t ld_keep(const uint32_t* p) {
  uint32_t out;
  asm("ld.L1::evict_last.u32 %0, [%1];" : "=r"(out) : "l"(p));  // expect: missing-memory-clobber(info)
  return out;
}

__global__ void k(const uint32_t* x, const float* table, float* out) {
  quad w;
  for (int j = 0; j < 4; ++j) {
    w.f32[j] = table[(threadIdx.x + j) & 63];
    w.u32[j] ^= ld_keep(x + j * 32 + threadIdx.x);
  }
  __syncthreads();
  out[threadIdx.x] = w.f32[0] + w.f32[1] + w.f32[2] + w.f32[3];
}
