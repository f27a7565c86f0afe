// missing-memory-clobber, info only: the acquire poll is followed by a call of a helper that
// is itself a compiler barrier (its body is one asm with "memory", run on every path), so no
// later C++ load can be hoisted above the poll.
__device__ __forceinline__ void group_sync(int threads) {
  asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory");
}

__global__ void consume(const int* flag, const float* data, float* out) {
  if (threadIdx.x == 0) {
    int ready = 0;
    while (ready == 0) {
      asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(ready) : "l"(flag));  // expect: missing-memory-clobber(info), generic-address(info)
    }
  }
  group_sync(128);
  out[threadIdx.x] = data[threadIdx.x];
}
