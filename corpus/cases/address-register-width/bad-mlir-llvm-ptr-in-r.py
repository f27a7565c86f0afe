# CuTe DSL: a global tensor's pointer passed to `red.global.add` through a 32-bit `r`
# register. The operand's MLIR type is not written in the call, so the address's own width
# decides: `.global` addresses are 64 bits.
from cutlass._mlir.dialects import llvm
from cutlass import Int32


def add_to_counter(counter, value):
    llvm.inline_asm(
        None,
        [counter.iterator.llvm_ptr, Int32(value).ir_value()],
        "red.global.add.u32 [$0], $1;",
        "r,r",  # expect: address-register-width
        has_side_effects=True,
    )

# Used: a function's asm is built only when something calls it.
USED = [add_to_counter]
