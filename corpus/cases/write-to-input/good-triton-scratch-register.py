# The input is copied into a scratch register declared inside braces (one per emitted copy of
# the asm): the template changes only its own register and the output.
import triton
import triton.language as tl


@triton.jit
def plus_one(x):
    return tl.inline_asm_elementwise(
        "{ .reg .b32 t; add.u32 t, $1, 1; mov.b32 $0, t; }",
        "=r,r",
        [x],
        dtype=tl.int32,
        is_pure=True,
        pack=1,
    )
