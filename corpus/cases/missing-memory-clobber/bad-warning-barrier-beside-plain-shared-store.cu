// missing-memory-clobber (warning): the twin of `bad-info-barrier-beside-volatile-flags.cu`
// whose shared array is not `volatile`: the plain store may sink below the named barrier, and
// the other warps read it after the barrier.
__global__ void hand_off(int* tails) {
  __shared__ int shared_tail[8];
  __syncthreads();
  shared_tail[threadIdx.x % 8] = tails[blockIdx.x];
  asm volatile("bar.sync 1, 64;");  // expect: missing-memory-clobber(warning)
  int seen = shared_tail[(threadIdx.x + 1) % 8];
  __syncthreads();
  tails[blockIdx.x * 8 + threadIdx.x % 8] = seen;
}
