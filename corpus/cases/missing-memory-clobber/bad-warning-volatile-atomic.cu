// missing-memory-clobber (warning): a volatile atomic with no "memory".
__device__ unsigned take_ticket(unsigned* next) {
  unsigned t;
  asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(t) : "l"(next));  // expect: missing-memory-clobber(warning)
  return t;
}

__global__ void k(unsigned* next, unsigned* tickets) {
  tickets[blockIdx.x * blockDim.x + threadIdx.x] = take_ticket(next);
}
