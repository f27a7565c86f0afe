# gpu: measured with Triton 3.6 on an H200: LLVM `invalid operand in inline asm`.
import triton
import triton.language as tl


@triton.jit
def copy(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $2;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)  # expect: operand-index
    tl.store(Y + offs, y)

# Used: a function's asm is built only when something calls it.
USED = [copy]
