# A scope, a predicate, setp and a guarded move in Triton's LLVM syntax (min of x and the lane
# id): every brace closed, every instruction ended, `$N` operands, `%laneid` as written.
import triton
import triton.language as tl


@triton.jit
def clamp_to_lane(x):
    return tl.inline_asm_elementwise(
        "{\n"
        ".reg .pred p;\n"
        ".reg .u32 lane;\n"
        "mov.u32 lane, %laneid;\n"
        "setp.gt.u32 p, $1, lane;\n"
        "mov.u32 $0, $1;\n"
        "@p mov.u32 $0, lane;\n"
        "}",
        "=r,r",
        [x],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )
