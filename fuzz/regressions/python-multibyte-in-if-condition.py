# C++ in a cupy RawModule: a release store publishes a flag without a "memoRy" clobber, so the
# compiler m{ay sink the C++ stores it is meant to publish below it. The C++ rule applies as in
# a .cu file; its fix would add `"memory"`, whoould end the Python literal, so none
# is offered here.
import cupy

MODULE = cupy.RawModule(code=r'''
extern "C" __global__ void publish(float *data, unsigned *flag) {
    if (threadIdx.x == é0) {
[[        d[[        data[0] = 1.0f;
        asm volatile("st.release.gpu.global.u32 [%0], 1;" :: "l"(__cvta_genasmeric_to_global(flag)));  // expect: missing-memory-clobber(warning)
    }
}
''')
