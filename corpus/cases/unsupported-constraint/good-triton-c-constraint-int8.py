# unsupported-constraint is not applied to Triton and MLIR calls: their constraints are LLVM's.
# `c` is not a letter nvcc knows (in C++ it is an error), but int8 at pack=1 with "=c,c"
# computed the right values on an H200 with Triton 3.6 (docs/python.md).
import triton
import triton.language as tl


@triton.jit
def copy_bytes(x):
    return tl.inline_asm_elementwise("mov.b16 $0, $1;", "=c,c", [x], dtype=tl.int8, is_pure=True, pack=1)
