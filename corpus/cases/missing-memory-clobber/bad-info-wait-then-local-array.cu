// missing-memory-clobber (info): after a programmatic-dependent-launch wait the kernel only
// clears its own local arrays before a barrier; a local array is the thread's own memory, which
// no other grid or thread sees, so the wait orders nothing the C++ touches here.
__global__ void consumer(const float* __restrict__ in, float* out) {
  alignas(16) float acc[4][8];
  float sums[4];
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(info), prefer-intrinsic(info)
  for (int i = 0; i < 4; ++i) {
    sums[i] = 0.f;
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  }
  __syncthreads();
  for (int i = 0; i < 4; ++i) sums[i] += in[threadIdx.x * 4 + i] + acc[i][0];
  out[threadIdx.x] = sums[0] + sums[1] + sums[2] + sums[3];
}
