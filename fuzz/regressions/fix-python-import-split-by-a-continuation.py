import\
 llvm.inline_asm(T.i32(), [a], "atom.global.add.u32 $0, [$1], 1;", "=r,l",
    )
def f2(a, x, C, offs):
    returntpiton.l