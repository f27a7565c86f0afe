// missing-memory-clobber (warning): the wait is what makes the cp.async data visible to the C++
// reads after it; without "memory" the compiler may read the tile before the wait.
__device__ void wait_all_copies() {
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(warning)
}

__global__ void use_tile(float* out) {
  __shared__ float tile[32];
  wait_all_copies();
  out[threadIdx.x] = tile[threadIdx.x];
}
