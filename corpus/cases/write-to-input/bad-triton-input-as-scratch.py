# write-to-input: the asm adds to $1, an input: the register that holds `x` for the rest of
# the kernel. Use a scratch register in braces instead.
import triton
import triton.language as tl


@triton.jit
def plus_one(x):
    return tl.inline_asm_elementwise(
        "add.u32 $1, $1, 1; mov.b32 $0, $1;",  # expect: write-to-input
        "=r,r",
        [x],
        dtype=tl.int32,
        is_pure=True,
        pack=1,
    )

# Used: a function's asm is built only when something calls it.
USED = [plus_one]
