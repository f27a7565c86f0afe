# unused-operand: Triton's inline_asm_elementwise always produces a result, so asm that only
# has side effects writes a dummy output; a call used as a statement throws it away.
import triton
import triton.language as tl


@triton.jit
def block_barrier():
    tl.inline_asm_elementwise("bar.sync 0;", "=r", [], dtype=tl.int32, is_pure=False, pack=1)
