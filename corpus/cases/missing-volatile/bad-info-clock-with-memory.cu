// missing-volatile (info): "memory" keeps the statement, but a clock read without volatile may
// still be moved across the arithmetic it is meant to time, or merged with another read.
__device__ unsigned stamp() {
  unsigned t;
  asm("mov.u32 %0, %%clock;" : "=r"(t) :: "memory");  // expect: missing-volatile(info), prefer-intrinsic(info)
  return t;
}

__global__ void time_work(float* data, unsigned* cycles) {
  unsigned t0 = stamp();
  data[threadIdx.x] = sqrtf(data[threadIdx.x]) * 3.0f;
  unsigned t1 = stamp();
  cycles[threadIdx.x] = t1 - t0;
}
