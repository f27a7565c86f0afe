// generic-address (warning): atom.shared given a generic pointer variable.
__device__ unsigned bump_bin(unsigned* bin) {
  unsigned old;
  asm volatile("atom.shared.add.u32 %0, [%1], 1;"
               : "=r"(old)
               : "l"(bin)  // expect: generic-address(info)
               : "memory");
  return old;
}

__global__ void k(const unsigned char* bytes, unsigned* hist) {
  __shared__ unsigned bins[256];
  bins[threadIdx.x & 255] = 0;
  __syncthreads();
  unsigned* bin = &bins[bytes[blockIdx.x * blockDim.x + threadIdx.x]];
  bump_bin(bin);
  __syncthreads();
  hist[blockIdx.x * 256 + (threadIdx.x & 255)] = bins[threadIdx.x & 255];
}
