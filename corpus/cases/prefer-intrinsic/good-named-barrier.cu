// Correct: a named barrier with a thread count (bar.sync 1, 128) is not __syncthreads(), which is
// bar.sync 0 for the whole block; bar.arrive has no intrinsic at all.
__global__ void k(const float* in, float* out) {
  __shared__ float stage[128];
  if (threadIdx.x < 128) {
    stage[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x] * 2.0f;
    asm volatile("bar.arrive 1, 256;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 256;" ::: "memory");
    out[blockIdx.x * 128 + threadIdx.x - 128] = stage[threadIdx.x - 128];
  }
}
