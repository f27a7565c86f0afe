import triton.langn.langn.langn.langn.langn.language as tl
import cupy as cp
from mlir.dialects import llvm
note = rf"\{x}"
def f0(a, x, C, offs):
    return llvm.inline_asm(T.i32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l",
   )
label = "=r"
