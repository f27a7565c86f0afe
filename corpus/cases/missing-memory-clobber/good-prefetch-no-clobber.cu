// Correct: prefetch touches no memory the program sees; it needs no "memory" clobber.
__device__ __forceinline__ void prefetch_l2(const void* p) {
  asm volatile("prefetch.L2 [%0];" :: "l"(p));
}

__device__ __forceinline__ void prefetch_l1(const void* p) {
  asm volatile("prefetch.L1 [%0];" :: "l"(p));
}

__global__ void k(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 4096 < n) prefetch_l2(in + i + 4096);
  if (i + 256 < n) prefetch_l1(in + i + 256);
  if (i < n) out[i] = in[i] + 1.0f;
}
