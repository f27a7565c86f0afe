# int8 with pack=4: four elements share one 32-bit register, so one output and one input.
# gpu: measured with Triton 3.6 on an H200: these constraints (with a `mov.b32 $0, $1;` template)
# aborted the Python process in LLVM while compiling.
import triton
import triton.language as tl


@triton.jit
def copy_bytes(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise(
        "mov.b32 $0, $4; mov.b32 $1, $5; mov.b32 $2, $6; mov.b32 $3, $7;",
        "=r,=r,=r,=r,r,r,r,r",  # expect: pack-mismatch(error)
        [x],
        dtype=tl.int8,
        is_pure=True,
        pack=4,
    )
    tl.store(Y + offs, y)

# Used: a function's asm is built only when something calls it.
USED = [copy_bytes]
