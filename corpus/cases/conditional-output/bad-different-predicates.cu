// conditional-output: writes under @lo and @!hi: two different predicates do not cover every
// case (x > 255 gets neither).
__device__ int clamp_flag(int x) {
  int r;
  asm("{\n\t"
      ".reg .pred lo, hi;\n\t"
      "setp.lt.s32 lo, %1, 0;\n\t"
      "setp.gt.s32 hi, %1, 255;\n\t"
      "@lo mov.s32 %0, 0;\n\t"  // expect: conditional-output
      "@!hi mov.s32 %0, 255;\n\t"
      "}"
      : "=r"(r)
      : "r"(x));
  return r;
}

__global__ void k(int* v) {
  v[threadIdx.x] = clamp_flag(v[threadIdx.x]);
}
