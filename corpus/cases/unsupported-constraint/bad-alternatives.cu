// unsupported-constraint: constraint alternatives ("r,n") in device code.
// gpu: nvcc rejects: an asm operand may specify only one constraint letter in a __device__/__global__ function
// gpu-bad: nvcc "an asm operand may specify only one constraint letter in a __device__/__global__ function"
__device__ unsigned scale(unsigned x, unsigned s) {
  unsigned r;
  asm("mul.lo.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"(x),
        "r,n"(s));  // expect: unsupported-constraint
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = scale(v[threadIdx.x], 3u);
}
