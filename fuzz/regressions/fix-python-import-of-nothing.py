import triton.language as tl
from mlir.dialects import 
llvm.inline_asm(T.i32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l")
def f0(a, x):
    return llvm.inline_asm(T.i32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l")
