// early-clobber: `y = x` carries the output back into the input every iteration of a runtime
// loop, so the compiler may give `x` and `y` one register; `mov %0, 7` then destroys `y` before
// `add` reads it.
// gpu: launch k<<<1,32>>>(out, 2) with out[*] = 8; each thread adds 7 twice: 22 expected, 14 when
// the output shares the input's register (measured with nvcc 13.0, -O3, sm_90)
// gpu-launch: k<<<1, 32>>>(out: u32[32] = 8, n: u32 = 2)
// gpu-bad: out[0] == 14
// gpu-good: out[0] == 22 && out[31] == 22

__global__ void k(unsigned* out, unsigned n) {
  unsigned y = out[threadIdx.x];
  for (unsigned i = 0; i < n; ++i) {
    unsigned x;
    asm("mov.u32 %0, 7;\n\t"
        "add.u32 %0, %0, %1;"
        : "=r"(x)  // expect: early-clobber(warning)
        : "r"(y));
    y = x;
  }
  out[threadIdx.x] = y;
}
