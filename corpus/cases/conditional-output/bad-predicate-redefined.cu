// conditional-output: the two guarded writes look complementary, but the predicate is recomputed
// between them, so for x == 0 neither write happens. (The "&" is right: %0 is written before %1
// is read again.)
__device__ int classify(int x) {
  int r;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.lt.s32 p, %1, 0;\n\t"
      "@p mov.s32 %0, -1;\n\t"  // expect: conditional-output
      "setp.gt.s32 p, %1, 0;\n\t"
      "@!p mov.s32 %0, 1;\n\t"
      "}"
      : "=&r"(r)
      : "r"(x));
  return r;
}

__global__ void k(int* v) {
  v[threadIdx.x] = classify(v[threadIdx.x]);
}
