# Values narrower than their register: measured with Triton 3.6 on an H200, float16,
# bfloat16, int16 and int8 at pack=1 with `=h,h`, `=r,r` or `=c,c`, and int8 at pack=2
# (16 bits) with `=h,h` or `=r,r`, all computed the right values.
import triton
import triton.language as tl


@triton.jit
def narrow(x, y, z):
    a = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.float16, is_pure=True, pack=1)
    b = tl.inline_asm_elementwise("mov.b16 $0, $1;", "=h,h", [y], dtype=tl.bfloat16, is_pure=True, pack=1)
    c = tl.inline_asm_elementwise("mov.b16 $0, $1;", "=h,h", [z], dtype=tl.int8, is_pure=True, pack=2)
    d = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [z], dtype=tl.int8, is_pure=True, pack=4)
    return a, b, c, d
