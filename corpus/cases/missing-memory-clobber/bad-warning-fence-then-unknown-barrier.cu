// missing-memory-clobber (warning): the twin of `bad-info-fence-then-cutlass-named-barrier.cu`
// whose barrier helpers are the project's own, declared here but defined elsewhere: what they
// hold is not known, so the load after the fence is beside it and may move above it.
void consumer_sync(unsigned threads, unsigned id);
void consumer_arrive(unsigned threads, unsigned id);

__global__ void append_then_signal(float* kv_new, const float* scale, float* out) {
  kv_new[threadIdx.x] = 1.0f;
  consumer_sync(256, 2);
  asm volatile("fence.proxy.async.global;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
  consumer_arrive(384, 3);
  out[threadIdx.x] = scale[blockIdx.x];
}
