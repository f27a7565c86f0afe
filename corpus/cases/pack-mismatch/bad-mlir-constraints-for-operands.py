# MLIR's llvm.inline_asm takes one input constraint per operand. A lost comma joins two
# (`"=r,r" "r"` is `=r,rr`: one input constraint for two operands), and an operand dropped
# from the list leaves its constraint behind. LLVM's verifier rejects both (`invalid type for
# inline asm constraint string`, measured with llc 14).
from cutlass._mlir.dialects import llvm
from cutlass.cutlass_dsl import T


def add(a, b):
    return llvm.inline_asm(
        T.i32(),
        [a.ir_value(), b.ir_value()],
        "add.u32 $0, $1, $2;",  # expect: operand-index
        "=r,r" "r",  # expect: pack-mismatch
        has_side_effects=False,
    )


def arrive(bar, count):
    llvm.inline_asm(
        None,
        [
            # bar.ir_value(),
            count.ir_value(),
        ],
        "mbarrier.arrive.shared::cta.b64 _, [$0], $1;",
        "r,r",  # expect: pack-mismatch
        has_side_effects=True,
    )
