# PyTorch's inline_asm_elementwise op: `is_pure` defaults to True, so an asm that reads the
# clock is treated as a pure computation (merged, moved or deleted like one).
import torch
from torch._higher_order_ops.inline_asm_elementwise import inline_asm_elementwise


def stamp(x):
    return inline_asm_elementwise(  # expect: missing-volatile
        x,
        asm_str="{ .reg .u32 t; mov.u32 t, %clock; add.u32 $0, t, $1; }",
        constraints="=r,r",
        dtype=torch.int32,
    )

# Used: a function's asm is built only when something calls it.
USED = [stamp]
