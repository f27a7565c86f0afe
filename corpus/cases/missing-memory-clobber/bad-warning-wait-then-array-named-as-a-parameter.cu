// missing-memory-clobber (warning): `t16` is declared as a local array in one block, but the
// function's parameter of the same name (a pointer that may reach shared memory) is what the
// other block writes after the wait: that store is not the thread's own.
__device__ __noinline__ void task(float* t16, unsigned long long* bar) {
  {
    float t16[16];
    for (int i = 0; i < 16; ++i) t16[i] = 1.0f;
  }
  {
    asm volatile("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 _, [%0], 0;" :: "l"(bar));  // expect: missing-memory-clobber, generic-address(info), prefer-cuda-ptx(info)
    t16[threadIdx.x] = 2.0f;
  }
  {
    float t16[16];
    t16[0] = 3.0f;
  }
}
