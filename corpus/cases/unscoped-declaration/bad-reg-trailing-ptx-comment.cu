// unscoped-declaration: the template ends in a PTX `//` comment; the fix's `}` goes before it
// (after it, the comment would swallow the brace and the `{` would never close).
__device__ __forceinline__ unsigned twice(unsigned a) {
  unsigned r;
  asm(".reg .u32 t1;\n\t"  // expect: unscoped-declaration
      "add.u32 t1, %1, %1;\n\t"
      "mov.u32 %0, t1; // the result"
      : "=r"(r)
      : "r"(a));
  return r;
}

__global__ void double_it(unsigned* v) { v[0] = twice(v[1]); }
