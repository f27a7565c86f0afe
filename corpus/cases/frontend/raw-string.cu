// Front end: a raw string R"(...)" template spanning lines; the finding is inside it, so the
// expectation points down with expect@+N.
__device__ unsigned weighted(unsigned a, unsigned b) {
  unsigned r;
  // expect@+5: unsupported-modifier
  asm(R"(
    {
      .reg .u32 t;
      mul.lo.u32 t, %1, 3;
      add.u32 %0, t, %n2;
    }
  )"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = weighted(v[threadIdx.x], 7u);
}
