# ptx-syntax: Triton passes a pointer in $1, but `ld` reads memory only through an address in
# brackets (`[$1]`); ptxas rejects the bare register.
import triton
import triton.language as tl


@triton.jit
def load_volatile(ptrs):
    return tl.inline_asm_elementwise(
        "ld.volatile.global.u32 $0, $1;",  # expect: ptx-syntax
        "=r,l",
        [ptrs],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )

# Used: a function's asm is built only when something calls it.
USED = [load_volatile]
