// missing-volatile: the `do`/`while` loop polls one flag; the `for` around it moves to the
// next flag only after the poll ends. The address changes with `i`, but not while polling:
// only the innermost loop's variables change between the loads the compiler could merge.
__device__ unsigned wait_all(const unsigned* flags, int n) {
  unsigned v = 0;
  for (int i = 0; i < n; ++i) {
    do {
      asm("ld.u32 %0, [%1];" : "=r"(v) : "l"(flags + i));  // expect: missing-volatile, missing-memory-clobber(info)
    } while (v == 0);
  }
  return v;
}
