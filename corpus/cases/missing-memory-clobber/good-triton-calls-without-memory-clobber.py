# Not applied to Triton and MLIR calls: they order memory through their side-effect flag
# (`is_pure=False`, `has_side_effects=True`), which missing-volatile judges; what `~{memory}`
# adds to such a call is not measured.
import triton
import triton.language as tl
from cutlass._mlir.dialects import llvm
from cutlass import Int32


@triton.jit
def wait_flag(flag_ptr, n: tl.constexpr):
    p = flag_ptr + tl.arange(0, n) * 0
    return tl.inline_asm_elementwise(
        "ld.global.acquire.gpu.b32 $0, [$1];", "=r,l", [p], dtype=tl.int32, is_pure=False, pack=1
    )


def store_shared(smem_addr, value):
    llvm.inline_asm(
        None,
        [Int32(smem_addr).ir_value(), Int32(value).ir_value()],
        "st.shared.b32 [$0], $1;",
        "r,r",
        has_side_effects=True,
    )
