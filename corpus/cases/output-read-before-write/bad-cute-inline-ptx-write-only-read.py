# output-read-before-write through the CuTe DSL's inline_ptx: {$w0} is write-only, so the add
# reads garbage; a running total belongs in read_write_args ({$rw0}).
import cutlass.cute as cute
from cutlass import Int32


@cute.jit
def add_to_total(total, x):
    return cute.arch.inline_ptx(
        "add.u32 {$w0}, {$w0}, {$r0};",  # expect: output-read-before-write
        write_only_types=[Int32],
        read_only_args=[Int32(x)],
    )

# Used: a function's asm is built only when something calls it.
USED = [add_to_total]
