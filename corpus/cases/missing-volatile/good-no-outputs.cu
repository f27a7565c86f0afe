// Correct: an asm without outputs is implicitly volatile; missing-volatile never applies to it.
__device__ void add_to(unsigned* p, unsigned v) {
  asm("red.add.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__global__ void k(unsigned* total) {
  add_to(total, threadIdx.x);
}
