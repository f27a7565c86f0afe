# unsupported-modifier in C++ handed to cuda.core's Program: checked as C++, where `%n2` is
# operand 2 with GCC's `n` (negate) modifier, which nvcc rejects; the span is inside the Python
# literal and the unsafe fix removes the `n` there (then write the constant negated).
from cuda.core.experimental import Program

source = r"""
extern "C" __global__ void step_back(const int* pos, int* out) {
    int r;
    asm("add.s32 %0, %1, %n2;" : "=r"(r) : "r"(pos[threadIdx.x]), "n"(16));  // expect: unsupported-modifier, unsupported-constraint(info)
    out[threadIdx.x] = r;
}
"""

program = Program(source, "c++")
