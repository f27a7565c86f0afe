// missing-memory-clobber (warning): the twin of `bad-info-barrier-beside-kernel-output-stores.cu`
// where another thread reads the output back after the barrier: the barrier orders the store
// against that read.
__global__ void scatter(const float* in, float* out, int n) {
  __shared__ volatile int turn;
  if (threadIdx.x < n) out[threadIdx.x] = in[threadIdx.x] * 2.0f;
  asm volatile("bar.sync 1, 128;");  // expect: missing-memory-clobber(warning)
  if (threadIdx.x == 0) turn = 1;
  asm volatile("st.global.f32 [%0], %1;" :: "l"(__cvta_generic_to_global(out + 128)), "f"(out[(threadIdx.x + 1) % 128]) : "memory");
}
