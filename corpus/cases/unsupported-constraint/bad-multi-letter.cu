// unsupported-constraint: more than one constraint letter ("rn") in device code.
// gpu: nvcc rejects: an asm operand may specify only one constraint letter in a __device__/__global__ function
// gpu-bad: nvcc "an asm operand may specify only one constraint letter in a __device__/__global__ function"
__device__ unsigned add_k(unsigned x) {
  unsigned r;
  asm("add.u32 %0, %1, %2;"
      : "=r"(r)
      : "r"(x),
        "rn"(5));  // expect: unsupported-constraint
  return r;
}

__global__ void k(unsigned* v) {
  v[threadIdx.x] = add_k(v[threadIdx.x]);
}
