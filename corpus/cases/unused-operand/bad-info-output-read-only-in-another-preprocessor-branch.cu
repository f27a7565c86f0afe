// unused-operand (info): the prefetch's `"=l"(addr)` output is never written, but the only
// later use of `addr` is in the `#else` branch, which no build compiles with the asm: nothing
// reads the garbage.
template <typename T>
__host__ __device__ inline void prefetch(const T* addr) {
#if defined(__CUDA_ARCH__)
  asm(" prefetch.L1 [ %1 ];" : "=l"(addr) : "l"(addr));  // expect: unused-operand(info)
#else
  __builtin_prefetch(addr);
#endif
}

__global__ void k(const float* p, float* out) {
  prefetch(p + threadIdx.x);
  out[threadIdx.x] = p[threadIdx.x];
}
