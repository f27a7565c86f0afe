// Front end: host code with triple-chevron launches and CUDA runtime calls comes first; the asm in
// the device code after it must still be found.
#include <cstdio>

__global__ void fill(unsigned* v);

int run(unsigned* dev, int n) {
  dim3 grid((n + 255) / 256), block(256);
  fill<<<grid, block>>>(dev);
  fill<<<grid, block, 0, 0>>>(dev);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) std::printf("%s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}

__device__ unsigned tag(unsigned i) {
  unsigned r;
  asm("or.b32 %0, %1, %n2;" : "=r"(r) : "r"(i), "r"(0x80000000u));  // expect: unsupported-modifier
  return r;
}

__global__ void fill(unsigned* v) {
  v[blockIdx.x * blockDim.x + threadIdx.x] = tag(threadIdx.x);
}
