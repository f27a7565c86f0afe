# The CuTe DSL's own inline_ptx helper: named operands ({$w0} write-only, {$rw0} read-write,
# {$r0} read-only), the registers chosen from the types.
import cutlass.cute as cute
from cutlass import Float32, Int32, Uint32


@cute.jit
def pack_bf16x2(lo, hi):
    return cute.arch.inline_ptx(
        "cvt.rn.bf16x2.f32 {$w0}, {$r1}, {$r0};",
        write_only_types=[Uint32],
        read_only_args=[Float32(lo), Float32(hi)],
    )


@cute.jit
def accumulate_popcount(total, word):
    return cute.arch.inline_ptx(
        "{ .reg .b32 n; popc.b32 n, {$r0}; add.u32 {$rw0}, {$rw0}, n; }",
        read_write_args=[Int32(total)],
        read_only_args=[Uint32(word)],
    )
