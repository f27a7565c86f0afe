# PyTorch's inline_asm_elementwise op (Inductor lowers it to Triton's call): pure integer bit
# tricks on two inputs, pure by default and rightly so.
import torch
from torch._higher_order_ops.inline_asm_elementwise import inline_asm_elementwise


def average_floor(a, b):
    # (a & b) + ((a ^ b) >> 1): the mean without overflow.
    return inline_asm_elementwise(
        a,
        b,
        asm_str="{ .reg .b32 t, u; and.b32 t, $1, $2; xor.b32 u, $1, $2; shr.u32 u, u, 1; add.u32 $0, t, u; }",
        constraints="=r,r,r",
        dtype=torch.int32,
    )


def leading_zeros(x):
    return inline_asm_elementwise(x, asm_str="clz.b32 $0, $1;", constraints="=r,r", dtype=torch.int32)
