# A 64-bit value given 32-bit registers: LLVM passes the low half in and zero-extends the
# result (measured with llc 14, NVPTX back end): the high half is silently lost.
from cutlass._mlir.dialects import llvm
from cutlass import Int64
from cutlass.cutlass_dsl import T


def increment(x):
    return llvm.inline_asm(
        T.i64(),
        [Int64(x).ir_value()],
        "add.u32 $0, $1, 1;",
        # expect@+1: operand-size-mismatch, operand-size-mismatch
        "=r,r",
        has_side_effects=False,
    )

# Used: a function's asm is built only when something calls it.
USED = [increment]
