# The CuTe DSL's llvm.inline_asm runs once per thread where it is written: not elementwise.
from cutlass._mlir.dialects import llvm


def bump(counter):
    llvm.inline_asm(None, [counter], "red.global.add.u32 [$0], 1;", "l", has_side_effects=True)
