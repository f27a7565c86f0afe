# write-to-input: a back-off loop that counts its input down in place; the value the caller
# passed (`rounds`) is the register it keeps using.
from cutlass._mlir.dialects import llvm


def back_off(rounds):
    llvm.inline_asm(
        None,
        [rounds],
        "{\n"
        ".reg .pred p;\n"
        "WAIT:\n"
        "nanosleep.u32 64;\n"
        "sub.u32 $0, $0, 1;\n"  # expect: write-to-input
        "setp.ne.u32 p, $0, 0;\n"
        "@p bra WAIT;\n"
        "}",
        "r",
        has_side_effects=True,
    )

# Used: a function's asm is built only when something calls it.
USED = [back_off]
