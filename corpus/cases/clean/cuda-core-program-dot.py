# C++ compiled with cuda.core's Program: a dot product accumulated with mad.lo, the running
# sum a "+r" operand, so the asm reads the value the loop carries.
from cuda.core.experimental import Program, ProgramOptions

code = """
extern "C" __global__ void dot_rows(const int* a, const int* b, int* out, int n) {
    int acc = 0;
    for (int i = 0; i < n; ++i) {
        asm("mad.lo.s32 %0, %1, %2, %0;" : "+r"(acc) : "r"(a[i]), "r"(b[i]));
    }
    out[blockIdx.x] = acc;
}
"""

program = Program(code, code_type="c++", options=ProgramOptions(arch="sm_90"))
module = program.compile("cubin")
