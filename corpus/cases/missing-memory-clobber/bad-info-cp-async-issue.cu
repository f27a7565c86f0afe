// missing-memory-clobber (info): issuing cp.async in a volatile asm without "memory". The copy
// lands later; what orders it against C++ is the wait (here with "memory"), so this is info.
#include <cstdint>

__device__ void copy16(uint32_t dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;"  // expect: missing-memory-clobber(info)
               :: "r"(dst), "l"(__cvta_generic_to_global(src)));
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

__global__ void k(const int4* src, int4* dst) {
  __shared__ int4 tile[32];
  copy16(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x & 31])), src + threadIdx.x);
  __syncthreads();
  dst[threadIdx.x] = tile[(threadIdx.x + 1) & 31];
}
