// Front end: a file with CRLF line endings; line numbers and columns must not drift.
__device__ unsigned sub3(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "mul.lo.u32 t, %1, 3;\n\t"
      "add.u32 %0, t, %n2;\n\t"  // expect: unsupported-modifier
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = sub3(v[threadIdx.x], 3u);
}
