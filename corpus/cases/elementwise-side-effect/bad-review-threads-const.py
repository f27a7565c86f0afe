import triton
import triton.language as tl


@triton.jit
def bump(counter_ptr, N: tl.constexpr, NUM_THREADS: tl.constexpr):
    offs = tl.arange(0, N)
    ptrs = counter_ptr + offs
    if NUM_THREADS <= 256:
        tl.inline_asm_elementwise(
            "atom.global.add.u32 $0, [$1], 1;",
            "=r, l",
            [ptrs],
            dtype=tl.int32,
            is_pure=False,
            pack=1,
        )


USED = [bump]
# Found by a review of the 2026-12-07 session's changes: the rule must stay loud here.
# expect@-11: elementwise-side-effect(warning)
