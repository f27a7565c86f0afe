// unsupported-constraint: the twin of `frontend/host-simd-asm-with-ptx-like-words.h`: x86's
// `x` letter on a PTX instruction (`min.f32`) in device code is a mistake, not another
// target's asm: nvcc does not know the letter.
__device__ float smaller(float a, float b) {
  float r;
  asm("min.f32 %0, %1, %2;" : "=f"(r) : "x"(a), "f"(b));  // expect: unsupported-constraint
  return r;
}

__global__ void k(const float* in, float* out) {
  out[threadIdx.x] = smaller(in[threadIdx.x], 0.5f);
}
