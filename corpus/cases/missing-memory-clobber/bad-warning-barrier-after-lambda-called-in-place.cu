// missing-memory-clobber (warning): the twin of `bad-info-barrier-after-lambda-definition.cu`
// whose lambda is called where it is written (`[&] { ... }();`): its store runs right before
// the barrier, and without "memory" it may sink below it.
__global__ void stage(float* buf, const float* in) {
  [&] { buf[threadIdx.x] = in[threadIdx.x]; }();
  asm volatile("bar.sync 1, 64;");  // expect: missing-memory-clobber(warning)
  __syncthreads();
  buf[threadIdx.x] += buf[(threadIdx.x + 1) % 64];
}
