// Correct: volatile asm with "memory" for an atomic and for a polled load.
// gpu-launch: k<<<1, 32>>>(counter: u32[1] = 0, flag: u32[1] = 1, out: u32[32] = 0)
// gpu-good: counter[0] == 32
__device__ unsigned bump(unsigned* counter) {
  unsigned old;
  asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counter) : "memory");
  return old;
}

__device__ void wait_for(const unsigned* flag) {
  unsigned v;
  do {
    asm volatile("ld.volatile.u32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  } while (v == 0);
}

__global__ void k(unsigned* counter, const unsigned* flag, unsigned* out) {
  out[threadIdx.x] = bump(counter);
  if (threadIdx.x == 0) wait_for(flag);
}
