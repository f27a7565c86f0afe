// missing-memory-clobber (warning): a barrier orders memory; without "memory" the compiler may
// move C++ shared-memory accesses across it.
// gpu: attempt: 64 threads write `s` and arrive, 64 others sync on barrier 1 and read it; a store
// sunk below the arrive would give stale values
// gpu: measured 2026-12-05 (nvcc 13.0.88, NVRTC, H200): not reproduced; the order was kept
// gpu-launch: k<<<1, 128>>>(out: f32[64] = -1)
// gpu-bad: out[10] != 5
// gpu-good: out[10] == 5 && out[63] == 31.5
__device__ void producer_done() {
  asm volatile("bar.arrive 1, 128;");  // expect: missing-memory-clobber(warning)
}

__global__ void k(float* out) {
  __shared__ float s[64];
  if (threadIdx.x < 64) {
    s[threadIdx.x] = threadIdx.x * 0.5f;
    producer_done();
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[threadIdx.x - 64] = s[threadIdx.x - 64];
  }
}
