// missing-memory-clobber (info): the wait is followed only by accesses to a local array that
// each of two sibling blocks declares (`float t16[16];` twice): registers of the thread either
// way, which no other thread can write, so nothing in view needs the clobber.
__device__ __noinline__ float task(unsigned long long* bar) {
  float sum = 0.0f;
  {
    float t16[16];
    asm volatile("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [%0], 0;" :: "l"(bar));  // expect: missing-memory-clobber(info), generic-address(info), prefer-cuda-ptx(info)
    for (int i = 0; i < 16; ++i) t16[i] = float(i);
    sum += t16[3] + t16[7];
  }
  {
    float t16[16];
    for (int i = 0; i < 16; ++i) t16[i] = 3.0f;
    sum += t16[5];
  }
  return sum;
}
