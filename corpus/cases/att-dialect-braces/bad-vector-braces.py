from cutlass._mlir.dialects import llvm as L


def split(x):
    return L.inline_asm(T.i64(), [x], "mov.b64 $0, {$1, $1};", "=l,r", asm_dialect=L.AsmDialect.AD_ATT)  # expect: att-dialect-braces
