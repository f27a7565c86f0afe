# output-read-before-write: Triton outputs are write-only (`=f`): the fma reads $0 as its
# addend, but nothing loads a value into it first. Triton has no `+`; pass the addend in.
import triton
import triton.language as tl


@triton.jit
def axpy(a, x, y):
    return tl.inline_asm_elementwise(
        "fma.rn.f32 $0, $1, $2, $0;",  # expect: output-read-before-write
        "=f,f,f",
        [a, x],
        dtype=tl.float32,
        is_pure=True,
        pack=1,
    )

# Used: a function's asm is built only when something calls it.
USED = [axpy]
