# prefer-cuda-ptx in C++ held in a torch load_inline string: checked as C++, so the info
# names the `cuda::ptx` wrapper; the span is inside the Python literal.
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <cstdint>

__device__ void init_barrier(uint64_t* bar, unsigned count) {
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(bar));
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(addr), "r"(count) : "memory");  // expect: prefer-cuda-ptx(info)
}
"""

module = load_inline(name="barriers", cpp_sources="", cuda_sources=cuda_source)
