# Not applied to Triton and MLIR calls: `$0` is written before `$1` is read without `&`, yet
# measured with Triton 3.6 on an H200 (gpu-tests/python/confirm_triton.py) this asm computed
# x + 7 (107 from 100): LLVM's NVPTX back end gives the output its own virtual register.
import triton
import triton.language as tl


@triton.jit
def add_seven(x_ptr, y_ptr, n: tl.constexpr):
    o = tl.arange(0, n)
    x = tl.load(x_ptr + o)
    y = tl.inline_asm_elementwise(
        "mov.u32 $0, 7; add.u32 $0, $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1
    )
    tl.store(y_ptr + o, y)
