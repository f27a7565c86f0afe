// Correct: a scope opened in one asm statement and closed in a later one of the same function.
// The braces balance over the function, which is what ptxas sees.
// gpu-good: compiles
__device__ unsigned guarded_double(unsigned flag, unsigned v) {
  unsigned r = v;
  asm volatile("{\n\t"
               ".reg .pred take;\n\t"
               "setp.ne.u32 take, %0, 0;"
               :: "r"(flag));
  asm volatile("@take add.u32 %0, %0, %0;\n\t"
               "}"
               : "+r"(r));
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = guarded_double(threadIdx.x & 1u, v[threadIdx.x]);
}
