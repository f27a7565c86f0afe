// Front end: a string macro this file does not define (it would come from a project header) makes
// the template partial; rules stay silent about that piece, but the modifier in the known part is
// still found.
// gpu: compile with -DPROJECT_CACHE_HINT='".global"' (the project header is not part of the case)
#include <cstdint>

#ifndef PROJECT_CACHE_HINT
#include "project_cache_hints.h"
#endif

__device__ uint32_t load_hinted(const uint32_t* p, uint32_t k) {
  uint32_t v;
  asm volatile("{\n\t"
               ".reg .u32 t;\n\t"
               "ld" PROJECT_CACHE_HINT ".u32 t, [%1];\n\t"
               "mul.lo.u32 %0, t, %n2;\n\t"  // expect: unsupported-modifier
               "}"
               : "=r"(v)
               : "l"(p), "r"(k)
               : "memory");
  return v;
}

__global__ void k(const uint32_t* in, uint32_t* out) {
  out[threadIdx.x] = load_hinted(in + threadIdx.x, 3u);
}
