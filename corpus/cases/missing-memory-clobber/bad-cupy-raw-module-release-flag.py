# C++ in a cupy RawModule: a release store publishes a flag without a "memory" clobber, so the
# compiler may sink the C++ stores it is meant to publish below it. The C++ rule applies as in
# a .cu file; its fix would add `"memory"`, whose quotes could end the Python literal, so none
# is offered here.
import cupy

MODULE = cupy.RawModule(code=r'''
extern "C" __global__ void publish(float *data, unsigned *flag) {
    if (threadIdx.x == 0) {
        data[0] = 1.0f;
        asm volatile("st.release.gpu.global.u32 [%0], 1;" :: "l"(__cvta_generic_to_global(flag)));  // expect: missing-memory-clobber(warning)
    }
}
''')
