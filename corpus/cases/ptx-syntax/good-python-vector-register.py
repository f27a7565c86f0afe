# A register declared as a vector (`.reg .v4 .f32`) stands where `{...}` goes.
from cutlass._mlir.dialects import llvm


def red_v4(ptr, a, b, c, d):
    llvm.inline_asm(
        None,
        [ptr, a, b, c, d],
        "{\n\t"
        ".reg .v4 .f32 abcd;\n\t"
        "mov.f32 abcd.x, $1;\n\t"
        "mov.f32 abcd.y, $2;\n\t"
        "mov.f32 abcd.z, $3;\n\t"
        "mov.f32 abcd.w, $4;\n\t"
        "red.global.add.v4.f32 [$0], abcd;\n\t"
        "}\n",
        "l,f,f,f,f",
        has_side_effects=True,
    )
