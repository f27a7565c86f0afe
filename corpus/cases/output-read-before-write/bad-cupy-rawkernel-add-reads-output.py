# output-read-before-write in C++ held in a cupy RawKernel string: checked as C++ (`%0` is
# C++'s operand syntax here); the finding points into the Python literal.
import cupy

histogram_step = cupy.RawKernel(r'''
extern "C" __global__ void bump(const unsigned* delta, unsigned* total) {
    unsigned t = total[threadIdx.x];
    asm("add.u32 %0, %0, %1;" : "=r"(t) : "r"(delta[threadIdx.x]));  // expect: output-read-before-write
    total[threadIdx.x] = t;
}
''', 'bump')
