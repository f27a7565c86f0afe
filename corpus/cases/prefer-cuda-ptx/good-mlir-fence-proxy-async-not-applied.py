# prefer-cuda-ptx is not applied to MLIR calls: the CuTe DSL has no `cuda::ptx`; this fence is
# how a DSL kernel orders shared-memory writes before a TMA store.
from cutlass._mlir.dialects import llvm


def fence_view_async_shared():
    llvm.inline_asm(None, [], "fence.proxy.async.shared::cta;", "~{memory}", has_side_effects=True)
