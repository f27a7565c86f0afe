// missing-memory-clobber (warning): a barrier orders memory; without "memory" the compiler may
// move C++ shared-memory accesses across it.
__device__ void producer_done() {
  asm volatile("bar.arrive 1, 128;");  // expect: missing-memory-clobber(warning)
}

__global__ void k(float* out) {
  __shared__ float s[64];
  if (threadIdx.x < 64) {
    s[threadIdx.x] = threadIdx.x * 0.5f;
    producer_done();
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[threadIdx.x - 64] = s[threadIdx.x - 64];
  }
}
