// unused-operand: an empty template is the register-fence idiom only with "+": with "=" the
// compiler assumes the asm sets x, and x holds garbage afterwards.
// gpu: measured with nvcc 13.0: x = a; asm volatile("" : "=r"(x)); returned 16776640, not 9
__device__ unsigned fence_wrong(unsigned a) {
  unsigned x = a;
  asm volatile("" : "=r"(x));  // expect: unused-operand(warning)
  return x;
}

__global__ void k(unsigned* v) { v[threadIdx.x] = fence_wrong(v[threadIdx.x]); }
