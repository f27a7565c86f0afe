// missing-memory-clobber (warning): the twin of
// `bad-info-proxy-fence-beside-restrict-input-read.cu` without `__restrict__`: another name may
// write what `bias` points to (a bulk copy through a tensor map, say), so the load counts.
__global__ void stage(float* bias, float* __restrict__ out, int head) {
  float b = bias[head] * 2.0f;
  asm volatile("fence.proxy.async;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
  asm volatile("st.global.f32 [%0], %1;" :: "l"(__cvta_generic_to_global(out + head)), "f"(b) : "memory");
}
