# Not judged on Triton and MLIR calls: the rule knows a generic pointer from its C++ (a pointer
# type, `&smem[i]`, a `__cvta_generic_to_*` call), and these operands do not show what they
# hold. A Triton pointer given to `ld.global` and an MLIR 64-bit value given to `st.global` stay
# silent.
import triton
import triton.language as tl
from cutlass._mlir.dialects import llvm
from cutlass import Int32, Int64


@triton.jit
def load_streaming(src, n: tl.constexpr):
    p = src + tl.arange(0, n)
    return tl.inline_asm_elementwise(
        "ld.global.cs.b32 $0, [$1];", "=r,l", [p], dtype=tl.int32, is_pure=False, pack=1
    )


def store_result(addr, value):
    llvm.inline_asm(
        None,
        [Int64(addr).ir_value(), Int32(value).ir_value()],
        "st.global.b32 [$0], $1;",
        "l,r",
        has_side_effects=True,
    )
