# In LLVM inline asm `%smid` is right as written, and `$$` is a literal `$`.
import triton
import triton.language as tl


@triton.jit
def sm(Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    y = tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r", [], dtype=tl.int32, is_pure=False, pack=1)
    tl.store(Y + offs, y)
