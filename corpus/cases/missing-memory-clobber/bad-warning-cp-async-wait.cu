// missing-memory-clobber (warning): the wait is what makes the cp.async data visible to the C++
// reads after it; without "memory" the compiler may read the tile before the wait.
__device__ void wait_all_copies() {
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(warning)
}
