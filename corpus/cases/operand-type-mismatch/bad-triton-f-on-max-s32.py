# operand-type-mismatch: the integer max of float bits (right for non-negative floats) keeps
# float32 values in `f` registers, which are `.f32`: ptxas rejects them for `max.s32`. Use
# `=r,r,r`: `r` is `.b32` and fits either type.
import triton
import triton.language as tl


@triton.jit
def max_nonnegative(x, y):
    return tl.inline_asm_elementwise(
        "max.s32 $0, $1, $2;",
        "=f,f,f",  # expect: operand-type-mismatch
        [x, y],
        dtype=tl.float32,
        is_pure=True,
        pack=1,
    )

# Used: a function's asm is built only when something calls it.
USED = [max_nonnegative]
