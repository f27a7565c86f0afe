// Correct as far as anyone can tell: the operand types are template parameters or come from an
// unknown function, so their sizes are unknown and no size rule may fire.
// gpu-good: compiles
#include <cstdint>

template <typename Word>
__device__ Word rotate_bits(Word w) {
  Word r;
  asm("mov.b32 %0, %1;" : "=r"(r) : "r"(w));
  return r;
}

__device__ unsigned opaque_source(unsigned);

__device__ unsigned through_auto(unsigned x) {
  auto v = opaque_source(x);
  unsigned r;
  asm("add.u32 %0, %1, 3;" : "=r"(r) : "r"(v));
  return r;
}

__global__ void generic_words(unsigned* out) {
  out[threadIdx.x] = rotate_bits<unsigned>(threadIdx.x) + through_auto(threadIdx.x);
}

__device__ unsigned opaque_source(unsigned x) { return x * 2654435761u; }
