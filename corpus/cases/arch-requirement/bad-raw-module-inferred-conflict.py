# C++ in one cupy RawModule: one translation unit, so with no configured targets it is taken to
# be built for the targets all its unguarded forms have; `wgmma` exists only on sm_90a and
# `tcgen05` only on sm_100a/sm_100f (and later family members): no target builds both.
import cupy

FENCES = cupy.RawModule(code=r'''
extern "C" __global__ void hopper_fence() {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

extern "C" __global__ void blackwell_fence() {
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");  // expect: arch-requirement, prefer-cuda-ptx
}
''')
