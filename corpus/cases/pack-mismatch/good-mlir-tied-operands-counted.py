# Tied inputs are operands too: four accumulators passed in through the outputs' registers
# (`0,1,2,3`, numbered $4 to $7) and two sources ($8, $9) make six operands for six input
# constraints.
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T


def fma2(acc, a, b):
    return llvm.inline_asm(
        llvm.StructType.get_literal([T.f32()] * 4),
        [acc[0], acc[1], acc[2], acc[3], a, b],
        "fma.rn.f32 $0, $8, $9, $0; fma.rn.f32 $1, $8, $9, $1;"
        "fma.rn.f32 $2, $8, $9, $2; fma.rn.f32 $3, $8, $9, $3;",
        "=f,=f,=f,=f,0,1,2,3,f,f",
        has_side_effects=False,
    )
