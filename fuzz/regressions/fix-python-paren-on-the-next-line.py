import triton.language as tl
import cupy as cp
from mlir.dialects import llvm
def f0(a, x, C, offs):
    k = cp.RawKernel(r'''
extern "C" __global__ void k(int* p) {
  int v;
  asm("atom.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(p));
}
''', "k")
def f1(a, x, C, offs):\

    return llvm.inline_asm
(T.i32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l"  # constraints
    )
label = "=r"
