// Front end: a header's SIMD asm for CPUs, in plain inline functions (nothing says host or
// device) under CPU-feature conditions: `vminps`, `pld` and `maddv.w` resemble PTX words, but the templates name their operands (`%[a]`, which nvcc
// stops on in device code) and take x86's `x` register, and the empty barrier takes
// `"+g,x"`: another target's asm, never checked as PTX. The device function's finding proves
// the file was analysed.
#define HD inline

#if defined(__AVX__)
HD float vmin(float a, float b) {
  float r;
  asm("vminps %[a], %[b], %[r]" : [r] "=x"(r) : [a] "x"(a), [b] "x"(b));
  return r;
}
#define BARRIER(x) __asm__("" : "+g,x"(x))
#elif defined(__ARM_NEON)
HD void prefetch_line(const void* p) { __asm__ __volatile__("pld [%[addr]]\n" ::[addr] "r"(p)); }
#elif defined(__mips_msa)
HD void fma4(float& acc, float a, float b) {
  __asm__("maddv.w %w[acc], %w[a], %w[b]\n" : [acc] "+f"(acc) : [a] "f"(a), [b] "f"(b));
}
#endif

__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %n2;" : "=r"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
  return r;
}
