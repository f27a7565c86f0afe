# ptx-syntax: Python joins adjacent string literals with nothing between them; the first line
# ends without `;`, so ptxas reads the two instructions as one.
from cutlass._mlir import ir
from cutlass._mlir.dialects import llvm


def scaled_sum(a, b, scale):
    return llvm.inline_asm(
        ir.F32Type.get(),
        [a, b, scale],
        "{\n"
        ".reg .f32 s;\n"
        "add.f32 s, $1, $2\n"
        "mul.f32 $0, s, $3;\n"  # expect: ptx-syntax
        "}",
        "=f,f,f,f",
    )

# Used: a function's asm is built only when something calls it.
USED = [scaled_sum]
