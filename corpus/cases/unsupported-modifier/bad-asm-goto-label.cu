// unsupported-modifier: %l0 names a label operand of asm goto; PTX has no such thing.
// gpu: nvcc -arch=sm_90 fails: ptxas "Unknown symbol '%l0'"
// gpu-bad: ptxas "Unknown symbol '%l0'"
__device__ int sign_flip(int x) {
  asm goto("bra %l0;"  // expect: unsupported-modifier
           :
           :
           :
           : flipped);
  return x;
flipped:
  return -x;
}

__global__ void k(int* v) {
  v[threadIdx.x] = sign_flip(v[threadIdx.x]);
}
