// missing-memory-clobber (info): a proxy fence orders this thread's accesses between the
// generic proxy and the async proxy; beside it is only a load of a `__restrict__` kernel input
// that nothing in the kernel writes, which no proxy's write can meet.
__global__ void stage(float* __restrict__ bias, float* __restrict__ out, int head) {
  float b = bias[head] * 2.0f;
  asm volatile("fence.proxy.async;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  asm volatile("st.global.f32 [%0], %1;" :: "l"(__cvta_generic_to_global(out + head)), "f"(b) : "memory");
}
