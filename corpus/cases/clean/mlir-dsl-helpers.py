# CuTe DSL helpers written with the MLIR llvm dialect: an mma whose accumulator inputs are
# tied to its outputs, an acquire load and a proxy fence that say they have side effects,
# and a pure bit conversion.
from cutlass._mlir import ir
from cutlass._mlir.dialects import llvm


def mma_bf16_m16n8k16(c0, c1, c2, c3, a0, a1, a2, a3, b0, b1):
    f32 = ir.F32Type.get()
    return llvm.inline_asm(
        llvm.StructType.get_literal([f32] * 4),
        [c0, c1, c2, c3, a0, a1, a2, a3, b0, b1],
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
        "{$0, $1, $2, $3}, {$8, $9, $10, $11}, {$12, $13}, {$0, $1, $2, $3};",
        "=f,=f,=f,=f,0,1,2,3,r,r,r,r,r,r",
        has_side_effects=False,
    )


def load_acquire(flag_ptr):
    return llvm.inline_asm(
        ir.IntegerType.get_signless(32),
        [flag_ptr],
        "ld.global.acquire.gpu.b32 $0, [$1];",
        "=r,l,~{memory}",
        has_side_effects=True,
    )


def fence_before_tma_store():
    llvm.inline_asm(None, [], "fence.proxy.async.shared::cta;", "~{memory}", has_side_effects=True)


def half2_bits(lo, hi):
    return llvm.inline_asm(
        ir.IntegerType.get_signless(32),
        [hi, lo],
        "cvt.rn.f16x2.f32 $0, $1, $2;",
        "=r,f,f",
        has_side_effects=False,
    )
