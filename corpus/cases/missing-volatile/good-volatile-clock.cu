// Correct: clock reads in volatile asm are neither merged nor moved across each other.
__device__ unsigned stamp() {
  unsigned t;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(t));  // expect: prefer-intrinsic(info)
  return t;
}

__global__ void time_work(float* data, unsigned* cycles) {
  unsigned t0 = stamp();
  data[threadIdx.x] = sqrtf(data[threadIdx.x]) * 3.0f;
  unsigned t1 = stamp();
  cycles[threadIdx.x] = t1 - t0;
}
