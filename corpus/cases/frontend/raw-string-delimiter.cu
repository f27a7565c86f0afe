// Front end: a raw string with a delimiter, R"ptx(...)ptx", whose body contains )" and a
// percent escape; the findings inside are pointed at with expect@+N.
__device__ unsigned weighted(unsigned a, unsigned b) {
  unsigned r;
  // expect@+5: percent-escape
  // expect@+6: operand-index
  asm(R"ptx(
    {
      // a comment holding )" does not end the string
      .reg .u32 %t;
      mul.lo.u32 %%t, %1, 3;
      add.u32 %0, %%t, %3;
    }
  )ptx"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = weighted(v[threadIdx.x], 7u);
}
