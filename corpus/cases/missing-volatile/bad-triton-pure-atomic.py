# is_pure=True: the result is unused, so Triton deletes the atomic.
# gpu: measured with Triton 3.6 on an H200: the counter stayed 0; with is_pure=False it was 128.
import triton
import triton.language as tl


@triton.jit
def bump(C, N: tl.constexpr):
    offs = tl.arange(0, N)
    old = tl.inline_asm_elementwise(  # expect: missing-volatile
        # expect@+1: elementwise-side-effect
        "atom.global.add.u32 $0, [$1], 1;", "=r,l", [C + offs * 0], dtype=tl.int32, is_pure=True, pack=1)

# Used: a function's asm is built only when something calls it.
USED = [bump]
