// A relaxed atomic (no .acquire/.release: PTX's default) hands out tickets: it orders no other
// data, so a missing "memory" is only the contract (info), not a warning.
__device__ unsigned take_ticket(unsigned* next) {
  unsigned t;
  asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(t) : "l"(next));  // expect: missing-memory-clobber(info)
  return t;
}

__global__ void k(unsigned* next, unsigned* tickets) {
  tickets[blockIdx.x * blockDim.x + threadIdx.x] = take_ticket(next);
}
