// early-clobber: one step of a warp shuffle reduction (the shape CUB uses: shuffle down, then a
// predicated add of the thread's own value), written straight into %0 and run in a runtime loop
// with the result carried into the next step's input. The shuffle writes %0 before `add` reads
// %1: when the two share a register the add doubles the neighbour's value instead.
// gpu: launch k<<<1,32>>>(out, 32) with out[*] = lane; lane 0 should hold 0+1+...+31 = 496
// gpu-launch: k<<<1, 32>>>(out: u32[32] = iota, width: i32 = 32)
// gpu-bad: out[0] != 496
// gpu-good: out[0] == 496

__global__ void k(unsigned* out, int width) {
  unsigned x = out[threadIdx.x];
  for (int offset = 1; offset < width; offset <<= 1) {
    unsigned r;
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 "shfl.sync.down.b32 %0|p, %1, %2, 0x1f, 0xffffffff;\n\t"
                 "@p add.u32 %0, %0, %1;\n\t"
                 "}"
                 : "=r"(r)  // expect: early-clobber(warning)
                 : "r"(x), "r"(offset));
    x = r;
  }
  out[threadIdx.x] = x;
}
