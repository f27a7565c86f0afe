// Correct (by design): the value is written only when the probe hits, and the flag output is
// set on both paths by complementary guarded moves from the same predicate (`@hit mov 1`,
// `@!hit mov 0`), so the caller can tell whether the value holds anything.
struct Probe {
  unsigned valid, value;
};

__device__ Probe probe(const unsigned* table, unsigned key) {
  Probe r;
  asm("{\n\t"
      ".reg .pred hit;\n\t"
      "setp.ne.u32 hit, %2, 0;\n\t"
      "@hit mov.u32 %0, 1;\n\t"
      "@!hit mov.u32 %0, 0;\n\t"
      "@hit mul.lo.u32 %1, %2, 3;\n\t"
      "}"
      : "=&r"(r.valid), "=r"(r.value)
      : "r"(table[key]));
  return r;
}

__global__ void k(const unsigned* table, unsigned* out) {
  Probe p = probe(table, threadIdx.x);
  if (p.valid) out[threadIdx.x] = p.value;
}
