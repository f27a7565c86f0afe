// output-read-before-write: the only write before the read is guarded, so when the predicate is
// false the add reads garbage.
__device__ unsigned next_if_nonzero(unsigned x) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred nz;\n\t"
      "setp.ne.u32 nz, %1, 0;\n\t"
      "@nz mov.u32 %0, %1;\n\t"
      "add.u32 %0, %0, 1;\n\t"  // expect: output-read-before-write
      "}"
      : "=r"(r)
      : "r"(x));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = next_if_nonzero(v[threadIdx.x]);
}
