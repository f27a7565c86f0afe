// unused-operand: the twin of
// `bad-info-output-read-only-in-another-preprocessor-branch.cu` whose use of `addr` after the
// asm is in the same `#if` branch: it reads the garbage the unwritten output left.
template <typename T>
__host__ __device__ inline const T* prefetch_next(const T* addr) {
#if defined(__CUDA_ARCH__)
  asm(" prefetch.L1 [ %1 ];" : "=l"(addr) : "l"(addr));  // expect: unused-operand(warning)
  return addr + 1;
#else
  __builtin_prefetch(addr);
  return addr + 1;
#endif
}

__global__ void k(const float* p, float* out) {
  out[threadIdx.x] = *prefetch_next(p + threadIdx.x);
}
