// missing-memory-clobber (warning, measured on the GPU): a non-volatile atomic without "memory": the C++ load after it is
// merged with the one before it. (Also missing-volatile.)
// gpu: launch k<<<1,1>>>(p, out) with p[0] = 0; out[0] (y - x) is 0 instead of 1: the second load of p[0] was merged with the first
// gpu-launch: k<<<1, 1>>>(p: u32[1] = 0, out: u32[2] = 0)
// gpu-bad: out[0] != 1
// gpu-good: out[0] == 1
__global__ void k(unsigned* p, unsigned* out) {
  unsigned x = p[0];
  unsigned old;
  asm("atom.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p));  // expect: missing-volatile, missing-memory-clobber(warning)
  unsigned y = p[0];
  out[0] = y - x;
  out[1] = old;
}
