# conditional-output, info only: a Triton masked-load helper. A branch skips the load when
# `mask` is not 1, so the results are undefined there; the mask is the caller's own input and
# no caller is in this file (it uses the values under the same mask, as with `tl.load`
# without `other`).
import triton
import triton.language as tl


@triton.jit
def load_pair(ptr, mask):
    # expect@+7: conditional-output(info), conditional-output(info)
    return tl.inline_asm_elementwise(
        """
        {
            .reg .pred %p0;
            setp.ne.s32 %p0, $3, 1;
            @%p0 bra end;
            ld.global.v2.u32 {$0, $1}, [$2];
            end:
        }
        """,
        "=r,=r,l,r",
        args=[ptr, mask.to(tl.int32)],
        dtype=(tl.uint32, tl.uint32),
        is_pure=True,
        pack=1,
    )
