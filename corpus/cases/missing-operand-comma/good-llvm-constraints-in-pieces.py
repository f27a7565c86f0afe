# Triton and MLIR calls have no C++ operand list: operands are Python lists and the
# constraints one string, here written in two pieces joined by Python (the comma ends the
# first piece). Nothing for this rule to read.
import triton
import triton.language as tl
from cutlass._mlir.dialects import llvm
from cutlass import Int32
from cutlass.cutlass_dsl import T


@triton.jit
def mad(a, b, c):
    return tl.inline_asm_elementwise(
        "mad.lo.u32 $0, $1, $2, $3;",
        "=r,"
        "r,r,r",
        [a, b, c],
        dtype=tl.uint32,
        is_pure=True,
        pack=1,
    )


def mad_mlir(a, b, c):
    return llvm.inline_asm(
        T.i32(),
        [Int32(a).ir_value(), Int32(b).ir_value(), Int32(c).ir_value()],
        "mad.lo.u32 $0, $1, $2, $3;",
        "=r,r,"
        "r,r",
        has_side_effects=False,
    )
