// Correct: '::' sub-qualifiers (.shared::cta, .L2::cache_hint, .L2::evict_last, .L2::128B).
// gpu-good: compiles
#include <cstdint>

__device__ void copy_hinted(uint32_t dst, const void* src, uint64_t policy) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global.L2::cache_hint.L2::128B [%0], [%1], 16, %2;"
               :: "r"(dst), "l"(__cvta_generic_to_global(src)), "l"(policy)
               : "memory");
  asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(__cvta_generic_to_global(src)));
  asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

__device__ void store_cta(uint32_t a, uint32_t v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("st.shared::cta.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory");
#endif
}

__global__ void k(const uint4* in, uint4* out, uint64_t policy) {
  __shared__ uint4 tile[32];
  __shared__ uint32_t s[32];
  unsigned t = threadIdx.x & 31;
  copy_hinted(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[t])), in + t, policy);
  store_cta(static_cast<uint32_t>(__cvta_generic_to_shared(&s[t])), t);
  __syncthreads();
  out[t] = tile[31 - t];
  out[t].x += s[t];
}
