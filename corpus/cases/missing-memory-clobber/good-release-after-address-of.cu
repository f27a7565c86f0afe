// missing-memory-clobber, info only: between the __syncthreads() and the release the C++
// only computes an address (`&counts[n]`): no memory access there for the release to order.
__global__ void finish(int* counts, int n, int done) {
  counts[threadIdx.x] += 1;
  __syncthreads();
  if (threadIdx.x == 0) {
    int* total = &counts[n];
    asm volatile("atom.release.gpu.global.add.s32 %0, [%1], %2;" : "=r"(done) : "l"(total), "r"(1));  // expect: missing-memory-clobber(info), generic-address(info)
  }
}
