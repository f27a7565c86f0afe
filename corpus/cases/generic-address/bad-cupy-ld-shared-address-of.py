# C++ in a cupy RawKernel: `&tile[i]` is a generic pointer, but `ld.shared` takes a shared-window
# address. As in a .cu file; the safe fix wraps it in `__cvta_generic_to_shared(...)`, text that
# cannot end the Python literal.
import cupy

TRANSPOSE = cupy.RawKernel(r'''
extern "C" __global__ void column(const float *in, float *out) {
    __shared__ float tile[32][33];
    unsigned i = threadIdx.x;
    tile[i][0] = in[i];
    __syncthreads();
    float v;
    asm volatile("ld.shared.f32 %0, [%1];"
                 : "=f"(v)
                 : "l"(&tile[0][i])  // expect: generic-address(info)
                 : "memory");
    out[i] = v;
}
''', 'column')
