// early-clobber: an `=f` output written before an `r` input is read. nvcc gives them registers of
// different PTX classes (`%f` and `%r`), so they can never be one register: nothing to report.
__device__ float masked_square(float a, unsigned mask) {
  float r;
  asm("mul.f32 %0, %1, %1;\n\t"
      "and.b32 %0, %0, %2;"
      : "=f"(r)
      : "f"(a), "r"(mask));
  return r;
}
