// missing-memory-clobber (warning): the twin of `bad-info-wait-then-shared-array-declared.cu`
// whose kernel reads its input right after the grid-dependency wait, with no barrier between:
// without "memory" that load may be hoisted above the wait and read the previous kernel's
// output before it is written. The finding names the load.
__global__ void route(const float* scores, float* out) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
#endif
  __shared__ float __attribute((aligned(128))) sigmoid[128];
  sigmoid[threadIdx.x] = scores[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = sigmoid[(threadIdx.x + 1) % 128];
}
