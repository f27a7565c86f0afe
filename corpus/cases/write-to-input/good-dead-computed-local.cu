// Not loud: the input is a local computed for the asm and dead after it; writing it changes
// nothing the code reads (info: a scratch register would still be cleaner).
__device__ unsigned mix(unsigned a, unsigned b) {
  unsigned t = a ^ (b << 3);
  unsigned r;
  asm("shf.l.wrap.b32 %1, %1, %1, 7;\n\t"  // expect: write-to-input(info)
      "add.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"(t), "r"(b));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = mix(in[threadIdx.x], in[threadIdx.x + 1]);
}
