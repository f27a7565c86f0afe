// missing-memory-clobber (warning): the twin of
// `bad-info-wait-helper-named-only-in-a-comment.cu` where the helper is called: the load of
// the producer's output after the call may be hoisted above the wait.
__device__ __forceinline__ void wait_for_producer() {
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
}

__global__ void consume(const float* produced, float* out) {
  // The producer's output is read after `wait_for_producer()`.
  wait_for_producer();
  out[threadIdx.x] = produced[threadIdx.x];
}
