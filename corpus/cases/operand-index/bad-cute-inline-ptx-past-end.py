# The CuTe DSL's inline_ptx names its operands: {$r2} with two read-only arguments names none.
import cutlass.cute as cute
from cutlass import Int32


@cute.jit
def larger(a, b):
    return cute.arch.inline_ptx(
        "max.s32 {$w0}, {$r0}, {$r2};",  # expect: operand-index
        write_only_types=[Int32],
        read_only_args=[a, b],
    )

# Used: a function's asm is built only when something calls it.
USED = [larger]
