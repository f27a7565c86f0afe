import triton.language as tl
import cupy as cp
from mlir.dialects import llvm.inline_asm(T.i32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l"  # constraints
    )
note = f"{x["a"]} and {y!r:>{w}}"
label = "=r"

note = f"{x["a"]} and {y!r:>{w}}"
def f0(a, x, C, offs):
    return llvm.inline_asm(T.i32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l"  # constraints
    )
note = f"{x["a"]} and {y!r:>{w}}"
def f1(a, x, C, offs):
    return llvm.inline_asm(T.i32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l",
    )
note = f"""{
    len(x)  # a comment with """ in it
}"""
label = "=r"
