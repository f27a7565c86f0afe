// Correct: a read-only (non-coherent) load needs no "memory" clobber: no C++ store in the kernel
// may write what it reads, so moving it across C++ accesses changes nothing.
__device__ float sum_strided(const float* p, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) {
    float v;
    asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(__cvta_generic_to_global(p + i * 32)));  // expect: prefer-intrinsic(info)
    s += v;
  }
  return s;
}

__global__ void k(const float* in, float* out) {
  out[threadIdx.x] = sum_strided(in + threadIdx.x, 8);
}
