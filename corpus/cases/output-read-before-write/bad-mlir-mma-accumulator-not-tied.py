# output-read-before-write: the mma reads {$0..$3} as its C accumulator, but the outputs are
# plain `=f` and no input is tied to them: C is garbage. Tie the accumulator inputs to the
# outputs (`0,1,2,3`) as good-mlir-mma-tied-accumulator.py does.
from cutlass._mlir import ir
from cutlass._mlir.dialects import llvm


def mma_m16n8k8(a0, a1, b0):
    f32 = ir.F32Type.get()
    return llvm.inline_asm(
        llvm.StructType.get_literal([f32] * 4),
        [a0, a1, b0],
        "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
        "{$0, $1, $2, $3}, {$4, $5}, {$6}, {$0, $1, $2, $3};",  # expect: output-read-before-write
        "=f,=f,=f,=f,r,r,r",
        has_side_effects=False,
    )

# Used: a function's asm is built only when something calls it.
USED = [mma_m16n8k8]
