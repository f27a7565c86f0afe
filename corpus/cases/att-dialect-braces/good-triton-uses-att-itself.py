# Triton builds every inline_asm_elementwise with AD_ATT and braces work there (measured):
# the rule is about the CuTe DSL's llvm.inline_asm only.
import triton
import triton.language as tl


@triton.jit
def inc(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise("{ .reg .b32 t; add.u32 t, $1, 1; mov.b32 $0, t; }", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Y + offs, y)
