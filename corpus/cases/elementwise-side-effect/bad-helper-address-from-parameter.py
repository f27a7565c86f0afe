# A helper whose input is computed from its parameter by another helper that makes no tensor
# (`saddr = to_shared_u32(mbar_ptr)`): its callers still decide which threads run it (info).
# A helper that makes a tensor of its own (`tl.arange`) can replicate the address: warning.
import triton
import triton.language as tl


@triton.jit
def to_shared_u32(ptr):
    return tl.cast(ptr, tl.uint32, bitcast=True)


@triton.jit
def spread(ptr):
    return ptr + tl.arange(0, 32)


@triton.jit
def mbarrier_arrive(mbar_ptr):
    saddr = to_shared_u32(mbar_ptr)
    tl.inline_asm_elementwise(
        "mbarrier.arrive.shared::cta.b64 _, [$1]; mov.u32 $0, 0;",  # expect: elementwise-side-effect(info)
        "=r,r",
        [saddr],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )


@triton.jit
def count_all(counter):
    addrs = spread(counter)
    tl.inline_asm_elementwise(
        "red.global.add.u32 [$1], 1; mov.u32 $0, 0;",  # expect: elementwise-side-effect(warning)
        "=r,l",
        [addrs],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )

# Used: a function's asm is built only when something calls it.
USED = [mbarrier_arrive, count_all]
