// Front end: \045 is a '%' written as an octal escape ("\045n2" is %n2), and "\045\045" is an
// escaped percent (%%), which is fine in an asm with operands.
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred \045\045p;\n\t"
      "setp.ne.u32 \045\045p, %2, 0;\n\t"
      "selp.u32 %0, %1, \045n2, \045\045p;\n\t"  // expect: unsupported-modifier
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u);
}
