// missing-memory-clobber (info): a barrier of the block orders accesses among the block's
// threads; beside it is only a store to a kernel output nothing in the kernel reads (the
// host or a later kernel does, after this one ends), so sinking it below the barrier changes
// nothing any thread of this kernel sees.
__global__ void scatter(const float* in, float* out, int n) {
  __shared__ volatile int turn;
  if (threadIdx.x < n) out[threadIdx.x] = in[threadIdx.x] * 2.0f;
  asm volatile("bar.sync 1, 128;");  // expect: missing-memory-clobber(info)
  if (threadIdx.x == 0) turn = 1;
}
