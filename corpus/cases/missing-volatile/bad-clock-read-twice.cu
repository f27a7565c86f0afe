// missing-volatile: two identical clock reads in one kernel, around the work they time; without
// volatile the compiler may merge them into one read (the GPU header is not yet run).
// gpu-launch: k<<<1, 32>>>(data: f32[32] = 2.0, cycles: u32[32] = 0)
// gpu-bad: cycles[0] == 0
__global__ void k(float* data, unsigned* cycles) {
  unsigned t0, t1;
  asm("mov.u32 %0, %%clock;" : "=r"(t0));  // expect: missing-volatile, prefer-intrinsic(info)
  data[threadIdx.x] = sqrtf(data[threadIdx.x]) * 3.0f;
  asm("mov.u32 %0, %%clock;" : "=r"(t1));  // expect: missing-volatile, prefer-intrinsic(info)
  cycles[threadIdx.x] = t1 - t0;
}
