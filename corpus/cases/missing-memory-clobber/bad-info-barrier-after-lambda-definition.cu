// missing-memory-clobber (info): the store before the named barrier sits in a lambda's body,
// which runs where the lambda is called (after the barrier), not where it is written; no C++
// access the barrier orders is beside it.
__global__ void stage(float* buf, const float* in) {
  auto fill = [&](int s) { buf[s] = in[s]; };
  asm volatile("bar.sync 1, 64;");  // expect: missing-memory-clobber(info)
  fill(threadIdx.x);
  __syncthreads();
}
