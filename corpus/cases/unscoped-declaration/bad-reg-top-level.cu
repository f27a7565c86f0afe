// unscoped-declaration: a .reg at the top level of the template; the function is inlined twice.
// gpu: nvcc -arch=sm_90 fails: ptxas "Duplicate definition of variable 't1'" once mix() is inlined twice into k
// gpu-bad: ptxas "Duplicate definition of variable 't1'"
__device__ __forceinline__ unsigned mix(unsigned a, unsigned b) {
  unsigned r;
  asm(".reg .u32 t1;\n\t"  // expect: unscoped-declaration
      "xor.b32 t1, %1, %2;\n\t"
      "mad.lo.u32 %0, t1, 2654435761, %2;"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = mix(in[t], 7u) + mix(in[t + 1], 11u);
}
