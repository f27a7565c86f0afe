# C++ in a cupy RawKernel: two inputs with no comma between them (nvcc binds both, clang and
# GCC reject the statement; what NVRTC, which cupy uses, does is not measured). The rule
# applies as in a .cu file and its safe fix inserts the comma inside the Python literal.
import cupy

ADD = cupy.RawKernel(r'''
extern "C" __global__ void add(const unsigned *a, const unsigned *b, unsigned *c) {
    unsigned i = threadIdx.x, d;
    asm("add.u32 %0, %1, %2;" : "=r"(d) : "r"(a[i]) "r"(b[i]));  // expect: missing-operand-comma
    c[i] = d;
}
''', 'add')
