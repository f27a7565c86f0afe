// missing-volatile (info): two identical clock reads in one kernel, around the work they time.
// Without volatile the compiler may merge them, but nvcc 13 -O3 kept both (measured: the GPU
// header below is not reproduced, and gpu-tests/measure/changing-reads.sh counts two reads in
// SASS): no loop runs them, so info.
// gpu-launch: k<<<1, 32>>>(data: f32[32] = 2.0, cycles: u32[32] = 0)
// gpu-bad: cycles[0] == 0
__global__ void k(float* data, unsigned* cycles) {
  unsigned t0, t1;
  asm("mov.u32 %0, %%clock;" : "=r"(t0));  // expect: missing-volatile(info), prefer-intrinsic(info)
  data[threadIdx.x] = sqrtf(data[threadIdx.x]) * 3.0f;
  asm("mov.u32 %0, %%clock;" : "=r"(t1));  // expect: missing-volatile(info), prefer-intrinsic(info)
  cycles[threadIdx.x] = t1 - t0;
}
