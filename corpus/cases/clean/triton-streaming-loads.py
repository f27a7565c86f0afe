# Triton helpers that load with a cache hint and read a special register, each with the
# right purity: the load reads memory that other kernels write (not pure), the clock changes
# on every read (not pure), the bit arithmetic is pure.
import triton
import triton.language as tl


@triton.jit
def load_evict_first(ptrs):
    return tl.inline_asm_elementwise(
        "ld.global.cs.b32 $0, [$1];", "=r,l", [ptrs], dtype=tl.int32, is_pure=False, pack=1
    )


@triton.jit
def sm_clock():
    return tl.inline_asm_elementwise(
        "mov.u32 $0, %clock;", "=r", [], dtype=tl.int32, is_pure=False, pack=1
    )


@triton.jit
def rotate_left_8(x):
    return tl.inline_asm_elementwise(
        "shf.l.wrap.b32 $0, $1, $1, 8;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1
    )
