// Correct: cp.async with a 32-bit shared destination ("r") and a 64-bit global source ("l").
// gpu-good: compiles
#include <cstdint>

__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
               :: "r"(dst), "l"(__cvta_generic_to_global(gmem))
               : "memory");
#endif
}

__device__ __forceinline__ void cp_async_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

__global__ void copy_tiles(const int4* src, int4* dst) {
  __shared__ int4 tile[128];
  cp_async_16(&tile[threadIdx.x], src + blockIdx.x * 128 + threadIdx.x);
  cp_async_wait_all();
  __syncthreads();
  dst[blockIdx.x * 128 + threadIdx.x] = tile[threadIdx.x ^ 1];
}
