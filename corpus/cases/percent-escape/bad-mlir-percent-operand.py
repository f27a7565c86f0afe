# `%1` is C++'s spelling: in LLVM inline asm the operand is `$1`.
from cutlass._mlir.dialects import llvm


def neg(x):
    return llvm.inline_asm(T.i32(), [x], "neg.s32 $0, %1;", "=r,r")  # expect: percent-escape(error), unused-operand
