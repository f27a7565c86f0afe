from cutlass._mlir.dialects import llvm


def f(a):
    return llvm.inline_asm(T.i32(), [a], "{ .reg .b32 t; mov.b32 t, $1; mov.b32 $0, t; }", "=r,r")
