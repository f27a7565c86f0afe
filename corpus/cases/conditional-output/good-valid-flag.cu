// Correct (by design): the payload outputs are written only when the lookup succeeds, and the
// first output, always written from the same predicate, tells the caller whether they hold
// anything. The caller reads them only when `found` is set.
struct Lookup {
  unsigned found, value;
};

__device__ Lookup find_positive(int x) {
  Lookup r;
  asm("{\n\t"
      ".reg .pred hit;\n\t"
      "setp.gt.s32 hit, %2, 0;\n\t"
      "selp.u32 %0, 1, 0, hit;\n\t"
      "@!hit bra MISS_%=;\n\t"
      "mul.lo.u32 %1, %2, 3;\n\t"
      "MISS_%=:\n\t"
      "}"
      : "=&r"(r.found), "=r"(r.value)
      : "r"(x));
  return r;
}

__global__ void k(int* v) {
  Lookup r = find_positive(v[threadIdx.x]);
  if (r.found) v[threadIdx.x] = static_cast<int>(r.value);
}
