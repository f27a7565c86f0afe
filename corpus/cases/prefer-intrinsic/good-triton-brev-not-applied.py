# prefer-intrinsic is not applied to Triton calls: `__brev` is CUDA C++, not Triton.
import triton
import triton.language as tl


@triton.jit
def bit_reverse(x):
    return tl.inline_asm_elementwise("brev.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
