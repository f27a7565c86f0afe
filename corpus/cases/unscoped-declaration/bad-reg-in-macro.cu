// unscoped-declaration: the template comes from a macro body; the .reg is reported on the line of
// the #define that holds it.
// gpu: nvcc -arch=sm_90 fails: ptxas "Duplicate definition of variable 'whole'" once fold() is inlined twice
// gpu-bad: ptxas "Duplicate definition of variable 'whole'"
#include <cstdint>

#define SPLIT64(lo, hi, v)                                  \
  asm(".reg .b64 whole;\n\t" /* expect: unscoped-declaration */ \
      "mov.b64 whole, %2;\n\t"                               \
      "mov.b64 {%0, %1}, whole;"                             \
      : "=r"(lo), "=r"(hi)                                   \
      : "l"(v))

__device__ uint32_t fold(uint64_t v) {
  uint32_t lo, hi;
  SPLIT64(lo, hi, v);
  return lo ^ hi;
}

__global__ void k(const uint64_t* in, uint32_t* out) {
  out[threadIdx.x] = fold(in[threadIdx.x]) ^ fold(in[threadIdx.x + 1]);
}
