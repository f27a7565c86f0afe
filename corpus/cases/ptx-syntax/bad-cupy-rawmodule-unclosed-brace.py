# ptx-syntax in C++ held in a cupy RawModule: checked as C++; the `{` that opens the scope of
# the scratch register is never closed, and the span is inside the Python literal.
import cupy

SOURCE = r'''
extern "C" __global__ void twice(const unsigned* in, unsigned* out) {
    unsigned r;
    asm("{\n\t"  // expect: ptx-syntax
        ".reg .u32 t;\n\t"
        "add.u32 t, %1, %1;\n\t"
        "mov.u32 %0, t;"
        : "=r"(r) : "r"(in[threadIdx.x]));
    out[threadIdx.x] = r;
}
'''

module = cupy.RawModule(code=SOURCE)
kernel = module.get_function("twice")
