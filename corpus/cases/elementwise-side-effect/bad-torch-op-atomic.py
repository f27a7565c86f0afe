# PyTorch's inline_asm_elementwise op lowers to Triton's under Inductor: the atomic runs once
# per element each thread holds, replicated copies included.
import torch
from torch._higher_order_ops.inline_asm_elementwise import inline_asm_elementwise


def bump(addresses):
    return inline_asm_elementwise(
        addresses,
        # expect@+1: elementwise-side-effect
        asm_str="atom.global.add.u32 $0, [$1], 1;",
        constraints="=r,l",
        dtype=torch.int32,
        is_pure=False,
    )

# Used: a function's asm is built only when something calls it.
USED = [bump]
