// unsupported-constraint: GCC's "g" (any register, memory or immediate) in device code.
// gpu: nvcc rejects: asm operand type size(4) does not match type/size implied by constraint 'g' (measured)
// gpu-bad: nvcc "asm operand type size(4) does not match type/size implied by constraint 'g'"
__device__ unsigned bias(unsigned x, unsigned b) {
  unsigned r;
  asm("add.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"(x),
        "g"(b));  // expect: unsupported-constraint
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = bias(v[threadIdx.x], 9u);
}
