# An mbarrier arrival per element: the barrier counts replicated elements too.
import triton
import triton.language as tl

# expect@+4: elementwise-side-effect
ARRIVE = r"""
{
    .reg .b64 state;
    mbarrier.arrive.shared.b64 state, [$1];
    mov.u32 $0, 0;
}
"""


@triton.jit
def arrive(Bar, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.inline_asm_elementwise(ARRIVE, "=r,r", [Bar + offs * 0], dtype=tl.int32, is_pure=False, pack=1)
