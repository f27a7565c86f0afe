# C++ in a cupy RawKernel: `v` is `=` but loaded only for in-range threads, so the others store
# garbage instead of 0. As in a .cu file; the unsafe fix (`+`) stays inside the Python literal.
import cupy

GATHER = cupy.RawKernel(r'''
extern "C" __global__ void gather(const float *src, float *dst, int n) {
    float v = 0.0f;
    asm volatile("{ .reg .pred p; setp.lt.s32 p, %2, %3; @p ld.global.f32 %0, [%1]; }"  // expect: conditional-output
                 : "=f"(v)
                 : "l"(__cvta_generic_to_global(src + threadIdx.x)), "r"((int)threadIdx.x), "r"(n)
                 : "memory");
    dst[threadIdx.x] = v;
}
''', 'gather')
