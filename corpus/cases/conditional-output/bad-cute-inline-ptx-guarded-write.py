# The CuTe DSL's `inline_ptx`: the write-only operand `{$w0}` is set only under `@p` (and
# `clamp_all` uses every result); the
# finding names it as written.
import cutlass.cute as cute
from cutlass import Int32


def clamp_flag(v):
    return cute.arch.inline_ptx(
        "{ .reg .pred p; setp.gt.s32 p, {$r0}, 255; @p mov.b32 {$w0}, 255; }",  # expect: conditional-output
        write_only_types=[Int32],
        read_only_args=[v],
    )


def clamp_all(values):
    return [clamp_flag(v) for v in values]
