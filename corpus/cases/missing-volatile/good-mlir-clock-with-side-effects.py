from cutlass._mlir.dialects import llvm


def clock():
    return llvm.inline_asm(T.i64(), [], "mov.u64 $0, %clock64;", "=l", has_side_effects=True)
