# PyTorch's inline_asm_elementwise op with pure arithmetic: pure by default, rightly.
import torch
from torch._higher_order_ops.inline_asm_elementwise import inline_asm_elementwise


def fast_rsqrt(x):
    return inline_asm_elementwise(
        x,
        asm_str="rsqrt.approx.f32 $0, $1;",
        constraints="=f,f",
        dtype=torch.float32,
    )
