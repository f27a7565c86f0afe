// Front end: the word asm inside string literals, comments and identifiers is not an asm
// statement. Only the real statement at the end is analysed.
//   asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));   <- a comment, not code
#include <cstdio>

/* asm volatile("mov.u32 %0, %5;" : "=r"(x)); */

__device__ unsigned plasma_asm_count = 0;

__device__ unsigned asm_like(unsigned x) {
  const char* doc = "asm(\"st.u32 [%0], %n1;\" :: \"r\"(p), \"r\"(v))";
  (void)doc;
  unsigned asm_result = x + plasma_asm_count;
  return asm_result;
}

void report() {
  std::printf("asm(\"%%n1\") statements checked\n");
}

__device__ unsigned real(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = real(asm_like(v[threadIdx.x]), 3u);
}
