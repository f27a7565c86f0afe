# unsupported-constraint is not applied to MLIR calls: LLVM's `n` takes a constant operand as an
# immediate; the shift amount is a compile-time constant of the DSL kernel. (In C++, `n` where
# the instruction also takes a register is an info.)
from cutlass import Int32
from cutlass._mlir import ir
from cutlass._mlir.dialects import llvm


def shift_left_4(x):
    return llvm.inline_asm(
        ir.IntegerType.get_signless(32),
        [x, Int32(4).ir_value()],
        "shl.b32 $0, $1, $2;",
        "=r,r,n",
    )
