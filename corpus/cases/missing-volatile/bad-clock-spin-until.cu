// missing-volatile: a spin until a clock deadline. Without volatile the read in the loop is
// the same pure function as the read before it: nvcc merged them, so the loop never sees the
// clock move and only its bound ends it.
// gpu: launch k<<<1,1>>>(iters) with wait = 2000 cycles; iters is 1000000 instead of a few dozen
// gpu-launch: k<<<1, 1>>>(iters: u32[1] = 0, wait: u32 = 2000)
// gpu-bad: iters[0] == 1000000
// gpu-good: iters[0] < 1000000
__global__ void k(unsigned* iters, unsigned wait) {
  unsigned t0, t, n = 0;
  asm("mov.u32 %0, %%clock;" : "=r"(t0));  // expect: missing-volatile(info), prefer-intrinsic(info)
  do {
    asm("mov.u32 %0, %%clock;" : "=r"(t));  // expect: missing-volatile(warning), prefer-intrinsic(info)
    ++n;
  } while (t - t0 < wait && n < 1000000u);
  *iters = n;
}
