// Front end: UTF-8 text before the asm (é, ü, ß, 😀, 漢字) must not shift the mapping: columns
// are counted in characters.
// Schätzung der Größe — naïve café 😀😀 漢字
__device__ unsigned sub3(unsigned a, unsigned b) {  // « résumé » 😀
  unsigned r;
  /* 😀 */ asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  const char* label = "naïve 😀";
  (void)label;
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u);  // ✓
}
