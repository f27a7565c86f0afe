// Front end: asm inside a #pragma unroll loop body, a do/while and a range-for; the top-level
// .reg in the unrolled body is the finding.
__device__ unsigned mix_all(const unsigned (&w)[4]) {
  unsigned h = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    asm(".reg .u32 t;\n\t"  // expect: unscoped-declaration
        "xor.b32 t, %0, %1;\n\t"
        "mad.lo.u32 %0, t, 16777619, 2166136261;"
        : "+r"(h)
        : "r"(w[i]));
  }
  int n = 0;
  do {
    asm("add.u32 %0, %0, %n1;" : "+r"(h) : "r"(n));  // expect: unsupported-modifier
  } while (++n < 2);
  for (unsigned x : w) {
    asm("xor.b32 %0, %0, %1;" : "+r"(h) : "r"(x));
  }
  return h;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned w[4] = {in[0], in[1], in[2], in[3]};
  out[threadIdx.x] = mix_all(w);
}
