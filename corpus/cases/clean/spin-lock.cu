// A global spin lock with exponential back-off: atom.cas to acquire, atom.exch to release, both
// volatile with "memory"; the back-off uses nanosleep, which has an intrinsic (info). Acquire and
// release semantics need sm_70, so each helper carries its guard.
#include <cstdint>

__device__ __forceinline__ int try_acquire(int* lock) {
  int prev = 1;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("atom.acquire.gpu.cas.b32 %0, [%1], 0, 1;\n" : "=r"(prev) : "l"(lock) : "memory");
#endif
  return prev == 0;
}

__device__ __forceinline__ void release(int* lock) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  int prev;
  asm volatile("atom.release.gpu.exch.b32 %0, [%1], 0;\n" : "=r"(prev) : "l"(lock) : "memory");
#endif
}

__device__ __forceinline__ void back_off(unsigned ns) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("nanosleep.u32 %0;\n" :: "r"(ns));  // expect: prefer-intrinsic(info)
#endif
}

__global__ void locked_increment(int* lock, int* counter) {
  if (threadIdx.x != 0) return;
  unsigned ns = 8;
  while (!try_acquire(lock)) {
    back_off(ns);
    if (ns < 1024) ns *= 2;
  }
  *counter += 1;
  release(lock);
}
