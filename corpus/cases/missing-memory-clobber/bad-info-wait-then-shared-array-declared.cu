// missing-memory-clobber (info): after the grid-dependency wait, the kernel only declares its
// shared arrays (one after an `#endif`, one with `__attribute((aligned(128)))` between type and
// name) before `__syncthreads()`. A declaration loads and stores nothing, so no C++ access the
// wait orders sits beside it.
__global__ void route(const float* scores, float* out) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(info), prefer-intrinsic(info)
#endif
  __shared__ float __attribute((aligned(128))) sigmoid[128];
  __shared__ int chosen[32];
  __syncthreads();
  sigmoid[threadIdx.x] = scores[threadIdx.x];
  chosen[threadIdx.x % 32] = 0;
  __syncthreads();
  out[threadIdx.x] = sigmoid[threadIdx.x] + chosen[threadIdx.x % 32];
}
