# `f` is an `.f32` register and fits `.b32`: clearing the sign bit of float32 values with
# `and.b32` in `f` registers is right.
import triton
import triton.language as tl


@triton.jit
def fast_abs(x):
    return tl.inline_asm_elementwise(
        "and.b32 $0, $1, 0x7FFFFFFF;", "=f,f", [x], dtype=tl.float32, is_pure=True, pack=1
    )
