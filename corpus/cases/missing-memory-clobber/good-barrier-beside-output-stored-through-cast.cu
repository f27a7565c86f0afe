// A block barrier orders accesses among this kernel's threads; the epilogue stores each
// thread's results to the kernel's output, which nothing in the kernel reads (the host or a
// later kernel does, after this one ends), here through a cast of an offset pointer after
// moving the pointer (`C += ...`): no C++ access the barrier orders is beside it (info).
// The twin kernel reads the output back after the barrier: reported.
#include <cuda_bf16.h>

__global__ void epilogue(const float* A, int* C, int N) {
  float acc[2] = {0, 0};
  for (int i = 0; i < 2; i++) {
    acc[i] += A[i];
    asm volatile("bar.sync 1, 128;");  // expect: missing-memory-clobber(info)
  }
  // the tile's corner
  C += blockIdx.x * N;
  reinterpret_cast<int2*>(C + threadIdx.x * 2)[0] = int2{(int)acc[0], (int)acc[1]};
}

__global__ void epilogue_reads_back(const float* A, int* C, int N) {
  float acc[2] = {0, 0};
  for (int i = 0; i < 2; i++) {
    acc[i] += A[i] + C[i];
    asm volatile("bar.sync 1, 128;");  // expect: missing-memory-clobber(warning)
  }
  C += blockIdx.x * N;
  reinterpret_cast<int2*>(C + threadIdx.x * 2)[0] = int2{(int)acc[0], (int)acc[1]};
}
