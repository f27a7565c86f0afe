// Front end: string macros from this file's #defines used as pieces of the template. The finding
// is inside a macro's string, so it lands on that #define line.
#include <cstdint>

#define PTX_SCOPE_OPEN "{\n\t"
#define PTX_SCOPE_CLOSE "}\n\t"
#define PTX_SCALE "mul.lo.u32 t, %1, %n2;\n\t" // expect: unsupported-modifier
#define PTX_OFFSET "add.u32 %0, t, 1;\n\t"

__device__ uint32_t scale_offset(uint32_t a, uint32_t b) {
  uint32_t r;
  asm(PTX_SCOPE_OPEN
      ".reg .u32 t;\n\t"
      PTX_SCALE
      PTX_OFFSET
      PTX_SCOPE_CLOSE
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(uint32_t* v) {
  v[threadIdx.x] = scale_offset(v[threadIdx.x], 3u);
}
