# Same sizes: an f32 result from an `r` register and an Int32 in `r` are bitcast by LLVM, and
# the sizes the call states agree with the registers.
from cutlass._mlir.dialects import llvm
from cutlass import Int32
from cutlass.cutlass_dsl import T


def as_float(bits):
    return llvm.inline_asm(
        T.f32(),
        [Int32(bits).ir_value()],
        "mov.b32 $0, $1;",
        "=r,r",
        has_side_effects=False,
    )
