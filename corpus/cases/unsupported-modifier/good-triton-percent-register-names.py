# In LLVM inline asm (Triton, MLIR) operands are `$N` and `%` is an ordinary character, so
# `%c0` and `%n1` here are PTX registers declared in the template, not operands with GCC's
# `c`/`n` modifiers (in C++ they would be, and nvcc rejects those).
import triton
import triton.language as tl


@triton.jit
def mul_add_hi(x, y):
    return tl.inline_asm_elementwise(
        "{ .reg .b32 %c0, %n1; mul.hi.u32 %c0, $1, $2; add.u32 %n1, %c0, $1; mov.b32 $0, %n1; }",
        "=r,r,r",
        [x, y],
        dtype=tl.int32,
        is_pure=True,
        pack=1,
    )
