# float32 is 32 bits wide: pack=2 makes two output registers, not one.
import triton
import triton.language as tl

CONSTRAINTS = "=r,r"  # expect: pack-mismatch


@triton.jit
def double(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise(
        "add.f32 $0, $1, $1;",
        CONSTRAINTS,
        [x],
        tl.float32,
        True,
        2,
    )
    tl.store(Y + offs, y)
