# int16 at pack=2: Triton packs two elements into one 32-bit register, and `h` is 16 bits.
# Measured with Triton 3.6 on an H200: LLVM aborts the process (an assertion in
# getCopyToPartsVector); float16 and bfloat16 at pack=2 with `h` end in ptxas
# "Arguments mismatch for instruction 'mov'". `=r,r` computes the right values.
import triton
import triton.language as tl


@triton.jit
def copy_pairs(x):
    return tl.inline_asm_elementwise(
        "mov.b32 $0, $1;",
        "=h,h",  # expect: operand-size-mismatch, operand-type-mismatch
        [x],
        dtype=tl.int16,
        is_pure=True,
        pack=2,
    )

# Used: a function's asm is built only when something calls it.
USED = [copy_pairs]
