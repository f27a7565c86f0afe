// Correct: x86 asm in a __host__ function and under #if !defined(__CUDA_ARCH__) is not PTX; its
// "a", "d" and "m" constraints are the host compiler's business.
// gpu-good: compiles
#include <cstdint>

__host__ uint64_t host_ticks() {
  uint32_t lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

__host__ __device__ inline uint64_t ticks() {
#if !defined(__CUDA_ARCH__)
  uint32_t lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return (static_cast<uint64_t>(hi) << 32) | lo;
#else
  return static_cast<uint64_t>(clock64());
#endif
}

static inline void host_fence(int* slot) {
  asm volatile("lock; addl $0, %0" : "+m"(*slot) :: "memory");
}

__global__ void k(uint64_t* out) {
  out[threadIdx.x] = ticks();
}

int main() {
  int slot = 0;
  host_fence(&slot);
  return static_cast<int>((host_ticks() + ticks()) & 1u);
}
