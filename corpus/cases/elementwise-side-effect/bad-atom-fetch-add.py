# A fetch-and-add handing out slots: replicated elements take extra slots.
import triton
import triton.language as tl


@triton.jit
def take_slot(C, Out, N: tl.constexpr):
    offs = tl.arange(0, N)
    slot = tl.inline_asm_elementwise("atom.global.add.u32 $0, [$1], 1;", "=r,l", [C + offs * 0], tl.int32, False, 1)  # expect: elementwise-side-effect
    tl.store(Out + offs, slot)

# Used: a function's asm is built only when something calls it.
USED = [take_slot]
