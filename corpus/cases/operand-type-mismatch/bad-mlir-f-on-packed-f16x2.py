# operand-type-mismatch: `cvt.rn.f16x2.f32` writes two halves packed in a `.b32`; an `f`
# register is `.f32`, which ptxas does not take for `.f16x2` (measured for cvt with ptxas 13.0).
from cutlass._mlir import ir
from cutlass._mlir.dialects import llvm


def pack_half2(lo, hi):
    return llvm.inline_asm(
        ir.IntegerType.get_signless(32),
        [hi, lo],
        "cvt.rn.f16x2.f32 $0, $1, $2;",
        "=f,f,f",  # expect: operand-type-mismatch
    )

# Used: a function's asm is built only when something calls it.
USED = [pack_half2]
