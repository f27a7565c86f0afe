// missing-volatile: a compare-and-swap spin lock written as a plain asm.
__device__ void lock(int* mutex) {
  int prev;
  do {
    asm("atom.cas.b32 %0, [%1], 0, 1;" : "=r"(prev) : "l"(mutex));  // expect: missing-volatile, missing-memory-clobber
  } while (prev != 0);
}

__device__ void unlock(int* mutex) {
  atomicExch(mutex, 0);
}

__global__ void k(int* mutex, int* total) {
  if (threadIdx.x == 0) {
    lock(mutex);
    *total += 1;
    __threadfence();
    unlock(mutex);
  }
}
