# unsupported-constraint in C++ held in a cupy RawModule: checked as C++, so the `m`
# constraint nvcc rejects in device code is an error; the span is inside the Python literal.
import cupy

module = cupy.RawModule(code=r'''
extern "C" __global__ void copy_scale(const unsigned* scale, unsigned* out) {
    unsigned s;
    asm volatile("mov.u32 %0, %1;" : "=r"(s) : "m"(scale[0]));  // expect: unsupported-constraint
    out[threadIdx.x] = s;
}
''')
