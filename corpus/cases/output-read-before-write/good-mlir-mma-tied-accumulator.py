# An input tied to output N (`0`, `1`...) enters through that output's register: the output is
# read-write, as `+f` is in C++, so reading {$0..$3} as the mma's C is right.
from cutlass._mlir import ir
from cutlass._mlir.dialects import llvm


def mma_m16n8k8(c0, c1, c2, c3, a0, a1, b0):
    f32 = ir.F32Type.get()
    return llvm.inline_asm(
        llvm.StructType.get_literal([f32] * 4),
        [c0, c1, c2, c3, a0, a1, b0],
        "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
        "{$0, $1, $2, $3}, {$8, $9}, {$10}, {$0, $1, $2, $3};",
        "=f,=f,=f,=f,0,1,2,3,r,r,r",
        has_side_effects=False,
    )
