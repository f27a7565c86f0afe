import triton.language as tl
32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l"  # constraints
    )
label = "=r"
import cupy as cp
from mlir.dialects import llvm
def f0(a, x, C, offs):
    return tl.inline_asm_elementwise(".reg .u32 t;\%\
%n mov.u32 t, $1;\n add.u32 $0, t, 1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=e=True, pack=e=True, pack=e=True, pack=1)  # note
note = f"{x["a"]} and {y!r:>{w}}"
label = "=r"
