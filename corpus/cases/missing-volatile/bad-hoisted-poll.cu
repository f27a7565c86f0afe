// missing-volatile: a load polled in a loop, neither volatile nor "memory": the load is hoisted.
// gpu: launch poll<<<1,1>>>(flag, iters) with *flag = 0; *iters is 1000000 instead of 11: the load was hoisted out of the loop
// gpu-launch: poll<<<1, 1>>>(flag: u32[1] = 0, iters: u32[1] = 0)
// gpu-bad: iters[0] != 11
// gpu-good: iters[0] == 11
__global__ void poll(unsigned* flag, unsigned* iters) {
  unsigned n = 0;
  unsigned v;
  do {
    asm("ld.u32 %0, [%1];" : "=r"(v) : "l"(flag));  // expect: missing-volatile, missing-memory-clobber
    ++n;
    if (n == 10) atomicExch(flag, 1u);
  } while (v == 0 && n < 1000000u);
  *iters = n;
}
