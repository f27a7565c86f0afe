// early-clobber: the same variable is the output and the input, so both hold one value when the
// asm starts and the compiler may give them one register: `mov %0, 1` then destroys `x` before
// the `add` reads it.
__device__ unsigned plus_one(unsigned x) {
  asm("mov.u32 %0, 1;\n\t"
      "add.u32 %0, %0, %1;"
      : "=r"(x)  // expect: early-clobber(warning)
      : "r"(x));
  return x;
}
