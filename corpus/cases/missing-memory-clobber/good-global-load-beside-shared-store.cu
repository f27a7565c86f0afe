// Not loud: a non-volatile `ld.global` beside a C++ store into a `__shared__` array. The two
// never alias (different state spaces), so the compiler may not need `"memory"` to keep
// their order; the store even takes the load's value.
#include <cstdint>

__device__ __forceinline__ uint32_t ld_keep(const uint32_t* p) {
  uint32_t out;
  asm("ld.global.L1::evict_last.u32 %0, [%1];" : "=r"(out) : "l"(p));  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info), generic-address(info)
  return out;
}

__global__ void k(const uint32_t* x, uint32_t* out) {
  __shared__ uint32_t buf[4][32];
  for (int i = 0; i < 4; ++i) {
    buf[i][threadIdx.x] = ld_keep(x + i * 32 + threadIdx.x);
  }
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x % 4][31 - threadIdx.x];
}
