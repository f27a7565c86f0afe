# unused-operand: the same dummy output, but the result is used: it is garbage.
import triton
import triton.language as tl


@triton.jit
def barrier_then_use(out_ptr):
    flag = tl.inline_asm_elementwise("bar.sync 0;", "=r", [], dtype=tl.int32, is_pure=False, pack=1)  # expect: unused-operand(warning)
    tl.store(out_ptr, flag)

# Used: a function's asm is built only when something calls it.
USED = [barrier_then_use]
