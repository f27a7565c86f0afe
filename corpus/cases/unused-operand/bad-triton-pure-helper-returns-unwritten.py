# unused-operand (error): a pure helper whose only output is never written: the helper exists
# for its result, so whatever calls it reads garbage.
import triton
import triton.language as tl


@triton.jit
def lane_plus(x):
    return tl.inline_asm_elementwise(
        "{ .reg .u32 t; mov.u32 t, %laneid; add.u32 t, t, $1; }",
        "=r,r",  # expect: unused-operand(warning)
        args=[x],
        dtype=tl.int32,
        is_pure=True,
        pack=1,
    )

# Used: a function's asm is built only when something calls it.
USED = [lane_plus]
