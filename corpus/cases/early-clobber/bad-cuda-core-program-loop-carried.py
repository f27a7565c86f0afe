# C++ compiled with cuda.core's Program: `y = x` feeds the output back into the input every
# iteration, so the compiler may give both one register, and `mul.lo` then overwrites `y`
# before `add` reads it. The C++ rule applies as in a .cu file; its `&` fix stays inside the
# Python literal.
from cuda.core.experimental import Program, ProgramOptions

SOURCE = r"""
extern "C" __global__ void hash_steps(unsigned *out, unsigned n) {
    unsigned y = out[threadIdx.x];
    for (unsigned i = 0; i < n; ++i) {
        unsigned x;
        asm("mul.lo.u32 %0, %1, 31;\n\t"
            "add.u32 %0, %0, %1;"
            : "=r"(x)  // expect: early-clobber(warning)
            : "r"(y));
        y = x;
    }
    out[threadIdx.x] = y;
}
"""

program = Program(SOURCE, code_type="c++", options=ProgramOptions(arch="sm_90"))
