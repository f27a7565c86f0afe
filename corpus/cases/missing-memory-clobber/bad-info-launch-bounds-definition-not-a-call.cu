// missing-memory-clobber (info): the barrier's lambda is called only on the `else` branch, and
// nothing is beside the call there. The kernel's own definition, whose name follows
// `__launch_bounds__(...)` rather than a type word, is not a call of the kernel: the store on
// the other branch is not beside the barrier.
__global__ void __launch_bounds__(128, 1) k(float* out, int n) {
  if (n > 0) {
    out[0] = 1.0f;
  } else {
    auto sync_group = [=]() { asm volatile("bar.sync 1, 64;"); };  // expect: missing-memory-clobber(info)
    sync_group();
  }
}
