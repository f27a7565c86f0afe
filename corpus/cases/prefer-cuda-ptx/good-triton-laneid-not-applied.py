# prefer-cuda-ptx is not applied to Triton, MLIR or inline_ptx calls: `cuda::ptx` is a C++
# library, so `get_sreg_laneid()` is no advice for a Triton kernel. In C++ this asm is an info.
import triton
import triton.language as tl


@triton.jit
def lane_id():
    return tl.inline_asm_elementwise("mov.u32 $0, %laneid;", "=r", [], dtype=tl.int32, is_pure=False, pack=1)
