# ptx-syntax through the CuTe DSL's inline_ptx: `add.u32` takes a destination and two sources;
# with one source ptxas reports "Arguments mismatch".
import cutlass.cute as cute
from cutlass import Int32


@cute.jit
def bump(x):
    return cute.arch.inline_ptx(
        "add.u32 {$w0}, {$r0};",  # expect: ptx-syntax
        write_only_types=[Int32],
        read_only_args=[Int32(x)],
    )

# Used: a function's asm is built only when something calls it.
USED = [bump]
