// Warp-level reductions: butterfly shuffles, a broadcast from lane 0, and redux.sync on sm_80+.
// These forms have intrinsics: info-level expectations.
#include <cstdint>

__device__ __forceinline__ float shfl_xor(float v, int mask) {
  float r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;\n"  // expect: prefer-intrinsic(info)
               : "=f"(r)
               : "f"(v), "r"(mask));
  return r;
}

__device__ __forceinline__ unsigned shfl_idx(unsigned v, int src_lane) {
  unsigned r;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;\n"  // expect: prefer-intrinsic(info)
               : "=r"(r)
               : "r"(v), "r"(src_lane));
  return r;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int m = 16; m >= 1; m /= 2) v += shfl_xor(v, m);
  return v;
}

__device__ __forceinline__ unsigned warp_max(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned r;
  asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;\n"  // expect: prefer-intrinsic(info)
               : "=r"(r)
               : "r"(v));
  return r;
#else
#pragma unroll
  for (int m = 16; m >= 1; m /= 2) {
    unsigned o = __shfl_xor_sync(0xffffffffu, v, m);
    v = o > v ? o : v;
  }
  return v;
#endif
}

__global__ void __launch_bounds__(256) row_stats(const float* x, const unsigned* keys, float* sums,
                                                 unsigned* maxima, unsigned* leaders) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  const float s = warp_sum(x[gid]);
  const unsigned m = warp_max(keys[gid]);
  const unsigned first = shfl_idx(keys[gid], 0);
  if (lane == 0) {
    sums[gid / 32] = s;
    maxima[gid / 32] = m;
    leaders[gid / 32] = first;
  }
}
