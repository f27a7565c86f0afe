// output-read-before-write: the template tests the "=r" output before it has written it.
__device__ unsigned normalize_flag(unsigned prev, unsigned fallback) {
  unsigned r = prev;
  asm("{\n\t"
      ".reg .pred nz;\n\t"
      "setp.ne.u32 nz, %0, 0;\n\t"  // expect: output-read-before-write
      "selp.u32 %0, 1, %1, nz;\n\t"
      "}"
      : "=r"(r)
      : "r"(fallback));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = normalize_flag(v[threadIdx.x], 2u);
}
