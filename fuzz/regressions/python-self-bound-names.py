# Names bound to themselves or to each other: followed forever, a stack overflow (an abort
# that took the fuzzer down; found on the 16-core run).
import triton.language as tl
p = p
n = n
A = A
L = L
y = tl.inline_asm_elementwise(A, "=r,r", L, dtype=tl.int32, is_pure=p, pack=n)
a = b
b = a
A = B
B = A
y = tl.inline_asm_elementwise(A, "=r,r", [x], dtype=tl.int32, is_pure=a, pack=b)
