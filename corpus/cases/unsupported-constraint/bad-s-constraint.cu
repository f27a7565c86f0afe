// unsupported-constraint: "s" (symbolic constant) is not allowed in device code.
// gpu: nvcc rejects: asm constraint letter 's' is not allowed inside a __device__/__global__ function
// gpu-bad: nvcc "asm constraint letter 's' is not allowed inside a __device__/__global__ function"
__device__ unsigned table[16];

__device__ unsigned long long table_address() {
  unsigned long long a;
  asm("mov.u64 %0, %1;"
      : "=l"(a)
      : "s"(table));  // expect: unsupported-constraint
  return a;
}

__global__ void k(unsigned long long* out) {
  out[threadIdx.x] = table_address();
}
