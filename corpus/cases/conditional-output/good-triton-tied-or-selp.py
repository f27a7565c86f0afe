# Outputs written on every path: `selp` sets `$0` whatever the predicate, and in the second call
# the input `0` is tied to output 0, so `$0` enters the asm holding `keep` and keeps it when the
# predicate is false (LLVM's form of a read-write output).
import triton
import triton.language as tl


@triton.jit
def mark_matches(x, keep):
    a = tl.inline_asm_elementwise(
        "{ .reg .pred p; setp.eq.s32 p, $1, 34; selp.s32 $0, 1, 0, p; }",
        "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1,
    )
    b = tl.inline_asm_elementwise(
        "{ .reg .pred p; setp.eq.s32 p, $1, 34; @p mov.s32 $0, 1; }",
        "=r,r,0", [x, keep], dtype=tl.int32, is_pure=True, pack=1,
    )
    return a, b
