// Front end: adjacent literals concatenated across lines, with // and /* */ C++ comments between
// them (which are not part of the template); the modifier in the fourth literal is mapped there.
__device__ unsigned poly(unsigned x, unsigned c0, unsigned c1) {
  unsigned r;
  asm("{\n\t"                           // open
      /* scratch */ ".reg .u32 t;\n\t"
      "mad.lo.u32 t, %1, %3, "          // t = x * c1 + ...
      "%n2;\n\t"  // expect: unsupported-modifier
      /* result */
      "mov.u32 %0, t;\n\t"
      "}"
      : "=r"(r)
      : "r"(x), "r"(c0), "r"(c1));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = poly(v[threadIdx.x], 1u, 3u);
}
