# 64-bit pointers in `l` for global addresses, and a 32-bit shared-window address in `r`
# (right for `.shared`): nothing to report.
import triton
import triton.language as tl
from cutlass._mlir.dialects import llvm
from cutlass import Int32
from cutlass.cutlass_dsl import T


@triton.jit
def load_flags(flags, n: tl.constexpr):
    p = flags + tl.arange(0, n)
    return tl.inline_asm_elementwise(
        "ld.global.acquire.gpu.b32 $0, [$1];", "=r,l", [p], dtype=tl.int32, is_pure=False, pack=1
    )


def load_shared(smem_addr):
    return llvm.inline_asm(
        T.i32(),
        [Int32(smem_addr).ir_value()],
        "ld.shared.b32 $0, [$1];",
        "=r,r",
        has_side_effects=True,
    )
