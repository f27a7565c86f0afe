# An op without results and without has_side_effects=True is deleted whatever it calls: a call
# of a function not in view stays a warning there (with results it would be info: the callee
# may be a pure getter).
from cutlass._mlir.dialects import llvm


def notify(addr):
    llvm.inline_asm(None, [addr], "call notify_host, ($0);", "l")  # expect: missing-volatile(warning)

# Used: a function's asm is built only when something calls it.
USED = [notify]
