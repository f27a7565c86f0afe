# Triton: the asm's last instruction without ';' runs into the PTX Triton emits after it.
# Measured with Triton 3.6: ptxas "Parsing error near '.loc': syntax error".
import triton
import triton.language as tl


@triton.jit
def plus_one(X, Y, N: tl.constexpr):
    o = tl.arange(0, N)
    x = tl.load(X + o)
    y = tl.inline_asm_elementwise("add.u32 $0, $1, 1", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)  # expect: ptx-syntax
    tl.store(Y + o, y)

# Used: a function's asm is built only when something calls it.
USED = [plus_one]
