// unused-operand (warning): `add.u32 %0, %1, %1;` reads `a` twice and never `b`: `%1, %1`
// was meant to be `%1, %2`, and the sum is wrong (a + a).
__device__ unsigned add2(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %1;" : "=r"(r) : "r"(a), "r"(b));  // expect: unused-operand(warning)
  return r;
}
