// missing-memory-clobber (warning): the twin of
// `bad-info-wait-then-cuda-grid-dependency-sync.cu` with `cudaTriggerProgrammaticLaunchCompletion()`
// after the wait: its asm carries no clobber, so it is no compiler barrier and the load may be
// hoisted above the wait.
__global__ void consume(const float* in, float* out) {
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
  cudaTriggerProgrammaticLaunchCompletion();
  out[threadIdx.x] = in[threadIdx.x];
}
