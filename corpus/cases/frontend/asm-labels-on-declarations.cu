// Front end: `asm("name")` after a declarator is an asm label (GCC's explicit register
// variables and symbol names), not an asm statement: no PTX to check. The device function's
// finding proves the file was analysed.
__device__ float scaled(float x) {
  register float acc asm("v64");
  acc = x * 2.0f;
  return acc;
}

extern int counter asm("global_counter");

__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}
