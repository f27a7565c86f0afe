# A Triton pointer is a 64-bit address, but `r` gives `ld.global` a 32-bit register for it.
# Triton's inputs carry no dtype in the call, so this rule reports it (an MLIR operand typed
# 64-bit, such as `Int64(a).ir_value()` with `r`, is operand-size-mismatch's finding instead).
import triton
import triton.language as tl


@triton.jit
def load_flags(flags, n: tl.constexpr):
    p = flags + tl.arange(0, n)
    return tl.inline_asm_elementwise(
        "ld.global.acquire.gpu.b32 $0, [$1];",
        "=r,r",  # expect: address-register-width
        [p],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )

# Used: a function's asm is built only when something calls it.
USED = [load_flags]
