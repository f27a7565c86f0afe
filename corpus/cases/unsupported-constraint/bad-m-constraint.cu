// unsupported-constraint: "m" (memory operand) is not allowed in device code.
// gpu: nvcc rejects: asm constraint letter 'm' is not allowed inside a __device__/__global__ function
// gpu-bad: nvcc "asm constraint letter 'm' is not allowed inside a __device__/__global__ function"
__device__ unsigned copy_from_memory(const unsigned& src) {
  unsigned r;
  asm volatile("mov.u32 %0, %1;"
               : "=r"(r)
               : "m"(src));  // expect: unsupported-constraint
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = copy_from_memory(in[threadIdx.x]);
}
