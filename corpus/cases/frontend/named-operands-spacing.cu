// Front end: symbolic operand names with unusual spacing ([ name ] "r" ( x )), referenced as
// %[name]; the misspelt one is the finding. (The parser must read these; note that nvcc 13 rejects
// every %[name] reference in device code, valid or not: "symbolic operand reference not
// supported!" for a known name, "invalid symbolic operand name" for an unknown one.)
__device__ unsigned fma_u32(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("mad.lo.u32 %[out], %[lhs], %[rhs], %[acc];"  // expect: operand-index
      : [ out ] "=r" ( r )
      : [lhs]"r"(a), [ rhs ]"r"(b),
        [acc] "r" (c));
  return r;
}

__device__ unsigned misspelt(unsigned a, unsigned b) {
  unsigned r;
  asm("add.u32 %[out], %[lhs], %[rhss];"  // expect: operand-index
      : [out] "=r"(r)
      : [lhs] "r"(a), [rhs] "r"(b));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = fma_u32(v[threadIdx.x], 3u, 1u) + misspelt(v[threadIdx.x], 2u);
}
