import triton
import triton.language as tl


@triton.jit
def bump(counter_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    ptrs = counter_ptr + offs
    tid = tl.program_id(0)          # the PROGRAM id: every thread of the program has the same value
    if tid < 4:
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
