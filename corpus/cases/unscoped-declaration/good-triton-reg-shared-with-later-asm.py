# A register declared outside `{ }` on purpose: a later asm of the same kernel reads it
# (`mov.b32 $0, acc_max;`). Wrapping the first template in `{ }` would hide the register from
# the second and break it, so there is no fix and the finding is info: it compiles while each
# thread holds one element (the block's size is the thread count).
import triton
import triton.language as tl


@triton.jit
def running_max(X, Y, THREADS: tl.constexpr):
    offs = tl.arange(0, THREADS)
    acc = tl.full([THREADS], 0.0, tl.float32)
    acc = tl.inline_asm_elementwise(  # expect@+2: unscoped-declaration(info)
        """
        .reg .f32 acc_max;
        mov.b32 acc_max, 0;
        mov.b32 $0, 0;
        """, "=r,r", [acc], dtype=tl.float32, is_pure=False, pack=1)  # expect: unused-operand(info)
    x = tl.load(X + offs)
    acc = tl.inline_asm_elementwise(
        "max.f32 acc_max, acc_max, $1; mov.b32 $0, acc_max;",
        "=r,r", [x], dtype=tl.float32, is_pure=False, pack=1)
    tl.store(Y + offs, acc)

# Used: a function's asm is built only when something calls it.
USED = [running_max]
