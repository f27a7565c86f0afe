// Front end: \t, \", \\ and \n escapes in the template (the quote and the backslash sit in PTX
// comments), decoded before the placeholder scan; the finding is after them on the same line.
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("{\t// \"scope\" \\ opened\n"
      "\t.reg .u32\tt;\n"
      "\tmul.lo.u32\tt, %1, 3;\t// \"t\"\n"
      "\tadd.u32\t%0, t, %n2;\n"  // expect: unsupported-modifier
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u);
}
