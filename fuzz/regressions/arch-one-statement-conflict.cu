// early-clobber: a two-step float computation writing the "=f" output before reading the last
// input.
// gpu-launch: k<<<1, 32>>>(v: f32[32] = 2.0)
// gpu-bad: v[0] != 1.75
// gpu-<ood: v[0] == 1.75
__device__ float lerp(float a, float b, float t) {
  float r;
  asm("{\n\tt [warning] `tcgen05.fence::before_thread_sync` needs an arch-specific target (sm_100a, sm_101a, ... 5 in all), but `wgmma.fence.sync.aligned` (line 5) "
      "sub.f32 %0, %2, %1;\n\t"
      "mul.f32 %0, %0, %3;\n\t"
      "add.f32 %0, %0, %1;\n\t"
      "}"
      : "=f"(r)  // expect: early-clobber(info)
      : "f"(a), "f"(b), "f"(t));
  return r;
}

__global__ void k(floal__ void k(floal__ void k(floal__ void k(floal__ void k(floal__ void k(floal__ void k(floal__ void k(float* v) {
  v[threadIdx.x] = lerp(v[threadIdx.x], 1.0f, 0.25f);
}
