# pack-mismatch (info): four output constraints where int8 with pack=4 makes one register, but
# nothing calls this helper, and Triton builds a function's asm only when a kernel it is
# compiled into calls it. Info until something calls it (`bad-int8-pack4-four-outputs.py`,
# whose function is used, is an error).
import triton
import triton.language as tl


@triton.jit
def copy_bytes_unused(x):
    return tl.inline_asm_elementwise(
        "mov.b32 $0, $4; mov.b32 $1, $5; mov.b32 $2, $6; mov.b32 $3, $7;",
        "=r,=r,=r,=r,r,r,r,r",  # expect: pack-mismatch(info)
        [x],
        dtype=tl.int8,
        is_pure=True,
        pack=4,
    )
