from cutlass._mlir.dialects import llvm


def f(a):
    return llvm.inline_asm(T.f32(), [a], "tanh.approx.f32 $0, $1;", "=f,f", asm_dialect=llvm.AsmDialect.AD_ATT)
