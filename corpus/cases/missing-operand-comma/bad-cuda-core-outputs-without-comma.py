# C++ compiled with cuda.core's Program: the two outputs of a wide multiply are written with no
# comma between them.
from cuda.core.experimental import Program

WIDE_MUL = """
extern "C" __global__ void wide_mul(const unsigned *a, unsigned *lo, unsigned *hi) {
    unsigned i = threadIdx.x, l, h;
    asm("mul.lo.u32 %0, %2, %2;\\n\\tmul.hi.u32 %1, %2, %2;"
        : "=&r"(l) "=r"(h)  // expect: missing-operand-comma
        : "r"(a[i]));
    lo[i] = l;
    hi[i] = h;
}
"""

program = Program(WIDE_MUL, code_type="c++")
