# inline_ptx gives an Int64 result a 64-bit register; `mov.b32` writes a 32-bit one.
import cutlass.cute as cute
from cutlass import Int32, Int64


@cute.jit
def widen(x):
    return cute.arch.inline_ptx(
        "mov.b32 {$w0}, {$r0};",
        write_only_types=[Int64],  # expect: operand-type-mismatch
        read_only_args=[Int32(x)],
    )

# Used: a function's asm is built only when something calls it.
USED = [widen]
