// Correct: cp.async (non-bulk), atom, red, ldmatrix and mma have no cuda::ptx wrapper.
#include <cstdint>

__device__ void copy8(uint32_t dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;"
               :: "r"(dst), "l"(__cvta_generic_to_global(src))
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
#endif
}

__device__ unsigned bump(unsigned* p) {
  unsigned old;
  asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p) : "memory");
  asm volatile("red.add.u32 [%0], 1;" :: "l"(p + 1) : "memory");
  return old;
}

__global__ void k(const uint2* in, uint2* out, unsigned* counter) {
  __shared__ uint2 s[32];
  copy8(static_cast<uint32_t>(__cvta_generic_to_shared(&s[threadIdx.x & 31])), in + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[31 - (threadIdx.x & 31)];
  out[threadIdx.x].x += bump(counter);
}
