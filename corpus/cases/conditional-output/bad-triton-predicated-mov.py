# `$0` is written only when the predicate holds, and the kernel below stores every element:
# for the other elements Triton's result is
# whatever the register held. Triton's constraints have no `+`: write the output on every path
# (`selp`), or tie an input holding the value to keep to it.
import triton
import triton.language as tl


@triton.jit
def mark_matches(x):
    return tl.inline_asm_elementwise(
        "{ .reg .pred p; setp.eq.s32 p, $1, 34; @p mov.s32 $0, 1; }",  # expect: conditional-output
        "=r,r",
        [x],
        dtype=tl.int32,
        is_pure=True,
        pack=1,
    )


@triton.jit
def mark_kernel(x_ptr, out_ptr):
    offs = tl.arange(0, 128)
    tl.store(out_ptr + offs, mark_matches(tl.load(x_ptr + offs)))
