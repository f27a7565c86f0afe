# No result and no has_side_effects=True: nothing keeps the op.
from cutlass._mlir.dialects import llvm


def put(addr, value):
    llvm.inline_asm(None, [addr, value], "st.shared.u32 [$0], $1;", "r,r")  # expect: missing-volatile

# Used: a function's asm is built only when something calls it.
USED = [put]
