// missing-volatile (info): %clock64 changes between reads; without volatile two reads may be
// merged, but nvcc 13 -O3 kept both reads of a helper called twice in straight-line code
// (measured: gpu-tests/measure/changing-reads.sh). (clock64() is the intrinsic.)
__device__ unsigned long long stamp() {
  unsigned long long t;
  asm("mov.u64 %0, %%clock64;" : "=l"(t));  // expect: missing-volatile(info), prefer-intrinsic(info)
  return t;
}

__global__ void time_work(float* data, unsigned long long* cycles) {
  unsigned long long t0 = stamp();
  data[threadIdx.x] = sqrtf(data[threadIdx.x]) * 3.0f;
  unsigned long long t1 = stamp();
  cycles[threadIdx.x] = t1 - t0;
}
