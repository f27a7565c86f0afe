// missing-memory-clobber (warning): the twin of `bad-info-launch-bounds-definition-not-a-call.cu`
// with the store after the call, on the barrier's own path (of an output the kernel also reads).
__global__ void __launch_bounds__(128, 1) k(float* out, int n) {
  if (n > 0) {
    out[0] = 1.0f;
  } else {
    auto sync_group = [=]() { asm volatile("bar.sync 1, 64;"); };  // expect: missing-memory-clobber(warning)
    sync_group();
    out[1] = out[0] + 2.0f;
  }
}
