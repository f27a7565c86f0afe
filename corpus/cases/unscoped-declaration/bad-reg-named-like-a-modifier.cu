// unscoped-declaration: `lo` declared outside `{ }`. Another function's `mul.lo` names no
// register `lo` (`.lo` is a modifier), so nothing shares it: the warning and its fix stay.
__device__ unsigned inc(unsigned a) {
  unsigned r;
  asm(".reg .u32 lo;\n mov.u32 lo, %1;\n add.u32 %0, lo, 1;" : "=r"(r) : "r"(a));  // expect: unscoped-declaration
  return r;
}

__device__ unsigned mul(unsigned a, unsigned b) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
