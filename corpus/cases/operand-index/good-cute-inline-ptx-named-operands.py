# The CuTe DSL's inline_ptx: write-only, read-write and read-only operands, all in range.
import cutlass.cute as cute
from cutlass import Float32, Int32


@cute.jit
def step(barrier_ptr, count, value, acc):
    cute.arch.inline_ptx(
        "mbarrier.init.b64 [{$r0}], {$r1};",
        read_only_args=[barrier_ptr, Int32(count)],
    )
    return cute.arch.inline_ptx(
        "ex2.approx.ftz.f32 {$w0}, {$r0}; add.f32 {$rw0}, {$rw0}, {$w0};",
        write_only_types=[Float32],
        read_only_args=[Float32(value)],
        read_write_args=[acc],
    )
