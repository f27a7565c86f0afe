// Correct: sm_80 instructions under a __CUDA_ARCH__ >= 800 guard, with a fallback.
// gpu-good: compiles
#include <cstdint>

__device__ unsigned warp_sum(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned r;
  asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(v), "r"(0xffffffffu));  // expect: prefer-intrinsic(info)
  return r;
#else
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
#endif
}

__device__ void copy16(uint32_t dst, const void* src) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
               :: "r"(dst), "l"(__cvta_generic_to_global(src))
               : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
#else
  *reinterpret_cast<int4*>(__cvta_shared_to_generic(dst)) = *static_cast<const int4*>(src);
#endif
}

__global__ void k(const int4* in, int4* out, unsigned* sums) {
  __shared__ int4 tile[32];
  copy16(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x & 31])), in + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[31 - (threadIdx.x & 31)];
  sums[threadIdx.x] = warp_sum(threadIdx.x);
}
