// missing-volatile: ld.acquire reads state other threads change; as a plain asm it may be merged,
// hoisted or dropped. (It also lacks "memory".)
__device__ unsigned read_ready(const unsigned* flag) {
  unsigned v = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(flag));  // expect: missing-volatile, missing-memory-clobber
#endif
  return v;
}

__global__ void consumer(const unsigned* flag, const float* data, float* out) {
  if (read_ready(flag)) out[threadIdx.x] = data[threadIdx.x];
}
