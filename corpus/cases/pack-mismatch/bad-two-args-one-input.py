# Two arguments need at least two input registers.
import triton
import triton.language as tl


@triton.jit
def add(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    z = tl.inline_asm_elementwise("add.s32 $0, $1, $1;", "=r,r", [x, y], dtype=tl.int32, is_pure=True, pack=1)  # expect: pack-mismatch
    tl.store(Z + offs, z)
