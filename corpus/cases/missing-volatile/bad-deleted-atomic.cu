// missing-volatile: a non-volatile atomic whose result is unused: the compiler deletes it.
// gpu: launch count<<<1,128>>>(counter) with *counter = 0; afterwards *counter is 0 instead of 128: the atomic was deleted (with volatile: 128)
// gpu-launch: count<<<1, 128>>>(counter: u32[1] = 0)
// gpu-bad: counter[0] != 128
// gpu-good: counter[0] == 128
__device__ __noinline__ void bump(unsigned* counter) {
  unsigned old;
  asm("atom.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counter));  // expect: missing-volatile, missing-memory-clobber
}

__global__ void count(unsigned* counter) {
  bump(counter);
}
