# `pack` comes from the caller: the register count cannot be known, nothing is judged.
import triton
import triton.language as tl


@triton.jit
def copy(X, Y, N: tl.constexpr, PACK: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=PACK)
    tl.store(Y + offs, y)
