// Front end: a PTX scope opened in one asm statement and closed in a later one (one real library
// does this); the braces balance over the function, so nothing may be reported for them. The
// modifier in the middle statement is the deliberate finding.
__device__ unsigned guarded_sum(unsigned flag, unsigned a, unsigned b) {
  unsigned r = a;
  asm volatile("{\n\t"
               ".reg .pred take;\n\t"
               "setp.ne.u32 take, %0, 0;\n\t"
               :: "r"(flag));
  asm volatile("@take add.u32 %0, %0, %n1;\n\t"  // expect: unsupported-modifier
               : "+r"(r)
               : "r"(b));
  asm volatile("}\n\t" ::: "memory");
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = guarded_sum(threadIdx.x & 1u, v[threadIdx.x], 5u);
}
