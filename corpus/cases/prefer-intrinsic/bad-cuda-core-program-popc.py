# prefer-intrinsic in C++ handed to cuda.core's Program: checked as C++, so `popc.b32` is
# `__popc`; the span is inside the Python literal.
from cuda.core.experimental import Program, ProgramOptions

code = """
extern "C" __global__ void count_bits(const unsigned* words, unsigned* counts) {
    unsigned n;
    asm("popc.b32 %0, %1;" : "=r"(n) : "r"(words[threadIdx.x]));  // expect: prefer-intrinsic(info)
    counts[threadIdx.x] = n;
}
"""

program = Program(code, code_type="c++", options=ProgramOptions(arch="sm_90"))
