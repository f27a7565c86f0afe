# Two cupy RawKernel strings are two compilations, each built for the device that runs it:
# `wgmma` (sm_90a only) in one and `tcgen05` (sm_100a and its family) in the other conflict
# with nothing. With no configured targets only a conflict inside one string is reported
# (bad-raw-module-inferred-conflict.py has both in one RawModule).
import cupy

HOPPER = cupy.RawKernel(r'''
extern "C" __global__ void fence() {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
''', "fence")

BLACKWELL = cupy.RawKernel(r'''
extern "C" __global__ void fence() {
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");  // expect: prefer-cuda-ptx(info)
}
''', "fence")


def fence_kernel():
    major, _ = cupy.cuda.Device().compute_capability
    return BLACKWELL if int(major) >= 10 else HOPPER
