# C++ in a cupy RawKernel: `%0` is written by `mul.lo` before `mul.hi` reads the inputs. No
# loop shows the compiler coalescing them here, so it is the rule's info, as in a .cu file.
import cupy

WIDE_MUL = cupy.RawKernel(r'''
extern "C" __global__ void wide_mul(const unsigned *a, const unsigned *b, unsigned *lo, unsigned *hi) {
    unsigned i = threadIdx.x, l, h;
    asm("mul.lo.u32 %0, %2, %3;\n\t"
        "mul.hi.u32 %1, %2, %3;"
        : "=r"(l), "=r"(h)  // expect: early-clobber(info)
        : "r"(a[i]), "r"(b[i]));
    lo[i] = l;
    hi[i] = h;
}
''', 'wide_mul')
