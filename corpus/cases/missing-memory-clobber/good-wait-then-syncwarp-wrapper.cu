// missing-memory-clobber, info only: the wait is followed by a call of a wrapper whose body is
// `__syncwarp()` on every path, a compiler barrier: no later C++ read can move above the wait.
__device__ __forceinline__ void warp_sync() { __syncwarp(); }

__global__ void consume_copies(float* out) {
  __shared__ float stage[32];
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(info)
  warp_sync();
  out[threadIdx.x] = stage[threadIdx.x % 32];
}
