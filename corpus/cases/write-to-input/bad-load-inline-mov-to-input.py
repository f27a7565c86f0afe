# write-to-input in C++ held in a torch load_inline string: checked as C++. The C++ fix
# (moving the operand to the outputs as "+r") would insert quotes into the Python literal, so
# none is offered here.
from torch.utils.cpp_extension import load_inline

CUDA_SRC = """
__global__ void reset_count(unsigned* counts) {
    unsigned c = counts[threadIdx.x];
    asm volatile("mov.u32 %0, 0;" :: "r"(c));  // expect: write-to-input
    counts[threadIdx.x] = c;
}
"""

ext = load_inline("reset_count", cpp_sources="", cuda_sources=[CUDA_SRC])
