import triton.language as tl
import cupy as cp
from mlir.dialects import llvm
def f0(a, x, C, offs):
    return tl.inline_asm_elementwise("
    len(x)  # a .reg .u32 t;\n mov.u32 t, $1;\n add.u32 $0, t, 1;", "=/* ptxguard: allow-file(r,r", [x], dtype=tl.int32, is_pure=True, pack=1)  # note
label = "=r"
