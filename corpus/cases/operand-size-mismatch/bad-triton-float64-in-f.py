# A float64 result in a 32-bit `f` register: LLVM stops with "scalar-to-vector conversion
# failed" (measured with llc 14, NVPTX back end).
import triton
import triton.language as tl


@triton.jit
def one(x):
    return tl.inline_asm_elementwise(
        "mov.f32 $0, 0f3F800000;",
        "=f",  # expect: operand-size-mismatch
        [],
        dtype=tl.float64,
        is_pure=True,
        pack=1,
    )

# Used: a function's asm is built only when something calls it.
USED = [one]
