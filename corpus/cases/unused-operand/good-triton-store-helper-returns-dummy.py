# unused-operand, info only: Triton makes every asm produce a result, so a store helper with
# side effects (is_pure=False) declares a dummy "=r" output it never writes and returns it; no
# caller in this file reads it, so nothing shows the garbage being used.
import triton
import triton.language as tl


@triton.jit
def store_if(ptr, x, mask):
    return tl.inline_asm_elementwise(
        "{ .reg .pred p; setp.ne.s32 p, $3, 0; @p st.global.b32 [$1], $2; }",
        "=r,l,r,r",  # expect: unused-operand(info)
        args=[ptr, x, mask.to(tl.int32)],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )
