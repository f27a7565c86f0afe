# Triton passes constraints to LLVM as written: the addend tied to the output (`0`) is loaded
# into $0 before the asm, so the fma may read it.
import triton
import triton.language as tl


@triton.jit
def axpy(a, x, y):
    return tl.inline_asm_elementwise(
        "fma.rn.f32 $0, $1, $2, $0;",
        "=f,f,f,0",
        [a, x, y],
        dtype=tl.float32,
        is_pure=True,
        pack=1,
    )
