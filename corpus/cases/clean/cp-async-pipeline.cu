// A multi-stage cp.async pipeline: each block streams tiles through shared memory and sums them.
// 32-bit shared addresses ("r"), 64-bit global addresses ("l"), the copy size and the number of
// pending groups as "n" immediates, "memory" on every statement that moves or orders data.
#include <cstdint>

namespace pipeline {

constexpr int kStages = 3;
constexpr int kTile = 256;  // floats per tile: 16 bytes per thread with 64 threads

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

template <int Bytes>
__device__ __forceinline__ void cp_async_cg(uint32_t dst, const void* src, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const int src_bytes = valid ? Bytes : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n"
               :: "r"(dst), "l"(__cvta_generic_to_global(src)), "n"(Bytes), "r"(src_bytes)
               : "memory");
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" :: "n"(Pending) : "memory");
#endif
}

}  // namespace pipeline

__global__ void __launch_bounds__(64) tile_sums(const float* __restrict__ in, float* __restrict__ out,
                                                int tiles) {
  using namespace pipeline;
  __shared__ __align__(16) float stage[kStages][kTile];
  const float* base = in + static_cast<size_t>(blockIdx.x) * tiles * kTile;
  const int lane4 = threadIdx.x * 4;

  for (int s = 0; s < kStages - 1; ++s) {
    cp_async_cg<16>(smem_u32(&stage[s][lane4]), base + (s < tiles ? s : 0) * kTile + lane4, s < tiles);
    cp_async_commit();
  }

  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    const int next = t + kStages - 1;
    cp_async_cg<16>(smem_u32(&stage[next % kStages][lane4]),
                    base + static_cast<size_t>(next < tiles ? next : 0) * kTile + lane4, next < tiles);
    cp_async_commit();
    cp_async_wait<kStages - 1>();
    __syncthreads();
    const float* cur = stage[t % kStages];
    acc += cur[lane4] + cur[lane4 + 1] + cur[lane4 + 2] + cur[lane4 + 3];
    __syncthreads();
  }
  cp_async_wait<0>();
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
