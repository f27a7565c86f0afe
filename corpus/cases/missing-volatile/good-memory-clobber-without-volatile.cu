// Correct: outputs, side effects, no volatile, but a "memory" clobber: nvcc keeps the statement
// (an atomic with its result unused still ran 128 times). The cuda::ptx wrappers are written this
// way.
// gpu-launch: count<<<1, 128>>>(counter: u32[1] = 0)
// gpu-good: counter[0] == 128
__device__ void bump(unsigned* counter) {
  unsigned old;
  asm("atom.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counter) : "memory");
}

__global__ void count(unsigned* counter) {
  bump(counter);
}
