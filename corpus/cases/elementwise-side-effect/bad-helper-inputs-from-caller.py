# A helper whose inputs are all its own parameters: its callers decide which threads run it
# (and may guard it by thread id), so the atomic is reported as an info, not a warning.
import triton
import triton.language as tl


@triton.jit
def raise_flag(flags):
    tl.inline_asm_elementwise(
        "atom.global.relaxed.sys.cas.b32 $0, [$1], 0, 1;",  # expect: elementwise-side-effect(info)
        "=r,l",
        [flags],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )


@triton.jit
def barrier(flags_base, world_size: tl.constexpr):
    tid = tl.arange(0, world_size)
    raise_flag(flags_base + tid)
