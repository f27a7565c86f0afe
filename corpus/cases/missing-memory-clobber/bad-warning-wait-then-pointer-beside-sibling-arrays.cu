// missing-memory-clobber (warning): two blocks declare a local `float t16[16]`, but an `auto`
// pointer of the same name (a copy of `buf`) is what the middle block stores through after
// the wait: not the thread's own memory.
__device__ __noinline__ void task(float* buf, unsigned long long* bar) {
  auto t16 = buf;
  {
    float t16[16];
    for (int i = 0; i < 16; ++i) t16[i] = 1.0f;
  }
  {
    asm volatile("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [%0], 0;" :: "l"(bar));  // expect: missing-memory-clobber(warning), generic-address(info), prefer-cuda-ptx(info)
    t16[threadIdx.x] = 2.0f;
  }
  {
    float t16[16];
    t16[0] = 3.0f;
  }
}
