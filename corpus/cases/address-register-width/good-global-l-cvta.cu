// Correct: 64-bit global addresses with "l", both as a plain pointer to a generic atom and as the
// converted address for atom.global.
// gpu-good: compiles
#include <cstdint>

__device__ __forceinline__ unsigned add_generic(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}

__device__ __forceinline__ unsigned add_global(unsigned* p, unsigned v) {
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;"
               : "=r"(old)
               : "l"(__cvta_generic_to_global(p)), "r"(v)
               : "memory");
  return old;
}

__global__ void tickets(unsigned* counters, unsigned* out) {
  unsigned a = add_generic(&counters[0], 1u);
  unsigned b = add_global(&counters[1], 2u);
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}
