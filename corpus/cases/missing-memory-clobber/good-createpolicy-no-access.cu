// Correct: createpolicy makes an L2 cache policy in a register without touching memory; no
// "memory" clobber is needed.
#include <cstdint>

__device__ uint64_t evict_last_policy() {
  uint64_t policy = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
#endif
  return policy;
}

__device__ uint64_t evict_first_half_policy() {
  uint64_t policy = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 0.5;" : "=l"(policy));
#endif
  return policy;
}

__global__ void k(uint64_t* pol) {
  pol[threadIdx.x] = evict_last_policy() ^ evict_first_half_policy();
}
