# C++ in a torch `load_inline` string: a generic pointer cut to 32 bits as the address of
# `atom.global`. The C++ rule applies as on a .cu file; the span is inside the Python literal,
# and the fix (`l` and the converted pointer) adds no quote that could end it.
from torch.utils.cpp_extension import load_inline

CUDA_SRC = r"""
__global__ void count(unsigned *counter) {
    unsigned old;
    asm volatile("atom.global.add.u32 %0, [%1], 1;"
                 : "=r"(old)
                 : "r"((unsigned)(size_t)counter)  // expect: address-register-width
                 : "memory");
}
"""

module = load_inline(name="count", cpp_sources="", cuda_sources=CUDA_SRC, functions=[])
