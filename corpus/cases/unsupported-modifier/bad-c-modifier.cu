// unsupported-modifier: %c0 (GCC's "bare constant" modifier) for an immediate. "n" alone is
// already printed as a bare number.
// gpu: nvcc rejects: Asm operand modifier not supported at "%c", try removing modifier or escaping with % (measured)
// gpu-bad: nvcc "Asm operand modifier not supported at \"%c\""
template <int N>
__device__ __forceinline__ void wait_pending() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %c0;"  // expect: unsupported-modifier
               :: "n"(N)
               : "memory");
#endif
}

__global__ void k(float* out) {
  wait_pending<1>();
  out[threadIdx.x] = 0.0f;
}
