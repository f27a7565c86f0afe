// missing-memory-clobber (info): the only C++ accesses beside the named barrier are of
// `volatile` shared flags (and one through a cast to a `volatile` pointer): the compiler keeps
// volatile accesses, in their order, beside volatile asm, so "memory" would order nothing more.
__global__ void hand_off(int* tails) {
  __shared__ volatile int shared_tail[8];
  __shared__ volatile bool retired[8];
  if (threadIdx.x < 8) {
    shared_tail[threadIdx.x] = tails[blockIdx.x * 8 + threadIdx.x] + 0 * threadIdx.x;
  }
  __syncthreads();
  retired[threadIdx.x % 8] = false;
  *reinterpret_cast<volatile int*>(&shared_tail[0]) = 1;
  asm volatile("bar.sync 1, 64;");  // expect: missing-memory-clobber(info)
  int seen = shared_tail[threadIdx.x % 8];
  if (retired[threadIdx.x % 8]) seen = -seen;
  __syncthreads();
  tails[blockIdx.x * 8 + threadIdx.x % 8] = seen;
}
