import cutlass._mlir.dialects.llvm as mlir_llvm

PTX = "{\n  .reg .pred p;\n  setp.ne.b32 p, $1, 0;\n  selp.b32 $0, 1, 0, p;\n}\n"


def nonzero(x):
    return mlir_llvm.inline_asm(T.i32(), [x], PTX, "=r,r", asm_dialect=mlir_llvm.AsmDialect.AD_ATT)  # expect@-4: att-dialect-braces
