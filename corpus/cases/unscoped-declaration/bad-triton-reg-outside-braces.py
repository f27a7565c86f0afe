# Each thread holds two elements: Triton emits the asm twice in one function.
# gpu: measured with Triton 3.6 on an H200: ptxas `Duplicate definition of variable 't'`;
# with `{ }` around it the values were right.
import triton
import triton.language as tl


@triton.jit
def inc(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise(".reg .b32 t; add.u32 t, $1, 1; mov.b32 $0, t;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)  # expect: unscoped-declaration
    tl.store(Y + offs, y)

# Used: a function's asm is built only when something calls it.
USED = [inc]
