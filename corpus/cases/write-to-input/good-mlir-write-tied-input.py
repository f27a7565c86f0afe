# An input tied to an output (`0`) shares that output's register: writing it through its own
# number ($1) writes the result, not a value the compiler keeps.
from cutlass._mlir import ir
from cutlass._mlir.dialects import llvm


def add_into(acc, x):
    return llvm.inline_asm(
        ir.IntegerType.get_signless(32),
        [acc, x],
        "add.u32 $1, $1, $2;",
        "=r,0,r",
        has_side_effects=False,
    )
