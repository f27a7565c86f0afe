# The template reads `$1` but not `$2`: data the asm was given and ignores. Info: an ignored
# input changes no result by itself, and nothing here reads one value through two operands.
import triton
import triton.language as tl


@triton.jit
def add_one(X, B, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    b = tl.load(B + offs)
    y = tl.inline_asm_elementwise("add.u32 $0, $1, 1;", "=r,r,r", [x, b], dtype=tl.int32, is_pure=True, pack=1)  # expect: unused-operand
    tl.store(Y + offs, y)

# Used: a function's asm is built only when something calls it.
USED = [add_one]
