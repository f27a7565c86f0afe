# Not applied to Triton and MLIR calls: the DSL compiles each kernel when it runs, for the GPU
# present, and Python picks the kernel from the device at run time, which no guard here shows.
# `wgmma` (sm_90a) and `tcgen05` (sm_100a) in one file are two kernels, not one build.
from cutlass._mlir.dialects import llvm


def hopper_fence():
    llvm.inline_asm(None, [], "wgmma.fence.sync.aligned;", "~{memory}", has_side_effects=True)


def blackwell_fence():
    llvm.inline_asm(None, [], "tcgen05.fence::before_thread_sync;", "~{memory}", has_side_effects=True)
