# MLIR / CuTe DSL: a branch jumps over the only write of `$0` when the input is zero, so on
# that path the result is garbage (and `reciprocals` uses every result).
from cutlass._mlir.dialects import llvm
from cutlass import Int32
from cutlass.cutlass_dsl import T


def reciprocal_or_skip(v):
    return llvm.inline_asm(
        T.f32(),
        [Int32(v).ir_value()],
        "{ .reg .pred z; .reg .f32 t; setp.eq.s32 z, $1, 0; @z bra DONE;\n"
        " cvt.rn.f32.s32 t, $1; rcp.approx.f32 $0, t;\n"  # expect: conditional-output
        "DONE: }",
        "=f,r",
        has_side_effects=False,
    )


def reciprocals(values):
    return [reciprocal_or_skip(v) for v in values]
