# operand-type-mismatch in C++ held in a torch load_inline string (one of two sources in the
# list): checked as C++, the `h` (16-bit) register does not fit `add.u32`; the span is inside
# the Python literal. No fix: no letter fits both `.u32` and a 16-bit `unsigned short`.
from torch.utils.cpp_extension import load_inline

HELPERS = r"""
__device__ unsigned add_offset(unsigned base, unsigned short offset) {
    unsigned r;
    asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(base), "h"(offset));  // expect: operand-type-mismatch
    return r;
}
"""

KERNEL = r"""
__global__ void offsets(const unsigned* base, const unsigned short* off, unsigned* out) {
    out[threadIdx.x] = add_offset(base[threadIdx.x], off[threadIdx.x]);
}
"""

ext = load_inline("offsets", cpp_sources="", cuda_sources=[HELPERS, KERNEL])
