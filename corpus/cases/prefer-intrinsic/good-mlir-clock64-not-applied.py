# prefer-intrinsic is not applied to MLIR, Triton or inline_ptx calls: `clock64()` is a CUDA
# C++ intrinsic a DSL kernel cannot call. In C++ this asm is an info.
from cutlass._mlir import ir
from cutlass._mlir.dialects import llvm


def read_clock64():
    return llvm.inline_asm(
        ir.IntegerType.get_signless(64), [], "mov.u64 $0, %clock64;", "=l", has_side_effects=True
    )
