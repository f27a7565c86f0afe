# unused-operand, info only: the selector is passed twice and the template reads only the
# second copy ($4): no data is ignored.
import triton
import triton.language as tl


@triton.jit
def decode(sel, lut_lo, lut_hi):
    return tl.inline_asm_elementwise(
        "prmt.b32 $0, $2, $3, $4;",
        "=r,r,r,r,r",  # expect: unused-operand(info)
        args=[sel, lut_lo, lut_hi, sel],
        dtype=tl.uint32,
        is_pure=True,
        pack=1,
    )
