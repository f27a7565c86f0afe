// Front end: a #define with backslash continuations that defines whole device functions. The
// template's type comes from a macro parameter (a partial template), but the modifier in the known
// part is still found, on its line of the macro body.
#include <cstdint>

#define DEFINE_LOADER(NAME, CTYPE, PTXTYPE, CONSTRAINT)              \
  __device__ CTYPE NAME(const CTYPE* p) {                           \
    CTYPE v;                                                        \
    asm volatile("ld." PTXTYPE " %0, [%a1];" /* expect: unsupported-modifier */ \
                 : "=" CONSTRAINT(v)                                \
                 : "l"(p)                                           \
                 : "memory");                                       \
    return v;                                                       \
  }

DEFINE_LOADER(load_u32, uint32_t, "u32", "r")

__global__ void k(const uint32_t* in, uint32_t* out) {
  out[threadIdx.x] = load_u32(in + threadIdx.x);
}
