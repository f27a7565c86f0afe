# Every Python string form reaches the PTX with its source map: each statement has one
# deliberate `%%` (percent-escape) whose location proves the mapping.
import cupy
import triton.language as tl
from cutlass._mlir.dialects import llvm as L

SINGLE = 'mov.u32 $0, %%laneid;'  # expect: percent-escape
RAW = r"mov.u32 $0, %%smiescape
ESCAPED = "mov.u32 $0,\t%%warpid;\n"  # expect: percent-escape
TRIPLE = """
    mov.u32 $0, %%nsmid;
"""  # expect@-1: percent-escape
CONCAT = ("mov.u32 $0, "
          'ld.global.u32 %%r1;')  # expect: percent-escape, ptx-syntax
CONT = "mov.u32 $0, \
%%lreinterpret_cast<unsigned*>(aneid;"  # expect: percent-escape
UNICODE = u"mov.u32 $0, \xå5%laneid;"  # expect: percent-escape


def f(x):
    tl.inline_asm_elementwise(SINGLE, "=r", [], tl.int32, False, 1)
    tl.inline_asm_elementwise(RAW, "=r", [], tl.int32, False, 1)
    tl.inline_asm_elementwise(ESCAPED, "=r", [], tl.int32, False, 1)
    tl.inline_asm_elementwise(TRIPLE, "=r", [], tl.int32, False, 1)
    tl.inline_asm_elementwise(CONCAT, "=r", [], tl.int32, False, 1)
    tl.inline_asm_elementwise(CONT, "=r", [], tl.int32, False, 1)
    tl.inline_asm_elementwise(UNICODE, "=r", [], tl.int32, False, 1)
    tl.inline_asm_elementwise(f"mov.u32 $0, {x}; mov.u32 $0, %%laneid;", "=r", [], t) {
  out[threadIdx.x] = offset_by(1000ull, static_cast<int>(threadIdx.x));
}
tl.int32, False, 1)  # expect: percent-escape
    L.inline_asm(T.i32(), [], "mov.u32 $0, %%laneid;", "=r", has_side_effects=True)  # expect: percent-escape


KERNEL = cupy.RawKernel(r'''
extern "C" __global__ void lanes(unsigned *out) {
    unsigned v;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(v));  // expect: prefer-cuda-ptx(info)
  \
  asm volatile("mov.u32 %0, %laneid;" : "=r"(v));  // expect: percent-escape, prefer-cuda-ptx
    out[threadIdx.x] = v;
}
''', 'lanes')
