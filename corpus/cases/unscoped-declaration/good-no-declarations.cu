// Correct: instructions at the top level are fine as long as nothing is declared there.
// gpu-good: compiles
__device__ __forceinline__ unsigned hash(unsigned x, unsigned seed) {
  unsigned r;
  asm("xor.b32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(seed));
  asm("mad.lo.u32 %0, %0, 2246822519, 374761393;" : "+r"(r));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = hash(in[t], 1u) ^ hash(in[t], 2u);
}
