# Front end: Triton runs on AMD GPUs too; a call holding AMD GPU asm (under `if IS_HIP:`) is
# not PTX and is not checked as PTX. The CUDA call's finding proves the file was analysed.
import triton
import triton.language as tl

IS_HIP = tl.constexpr(False)


@triton.jit
def wall_time():
    if IS_HIP:
        return tl.inline_asm_elementwise(
            """
            s_memrealtime $0
            s_waitcnt vmcnt(0)
            """,
            "=r",
            [],
            dtype=tl.int64,
            is_pure=False,
            pack=1,
        )
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=True, pack=1)  # expect: missing-volatile(info)
