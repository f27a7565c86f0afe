# LLVM inline asm does not read `%`: `%%laneid` reaches ptxas as written.
# gpu: measured with Triton 3.6 on an H200: ptxas failed with `Parsing error near '%'`;
# `%laneid` gave the lane ids.
import triton
import triton.language as tl


@triton.jit
def lanes(Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    y = tl.inline_asm_elementwise("mov.u32 $0, %%laneid;", "=r", [], dtype=tl.int32, is_pure=False, pack=1)  # expect: percent-escape(error)
    tl.store(Y + offs, y)

# Used: a function's asm is built only when something calls it.
USED = [lanes]
