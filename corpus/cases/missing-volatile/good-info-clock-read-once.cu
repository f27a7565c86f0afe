// Not loud: each clock register is read once, outside any loop, in a kernel, to seed a
// generator; nothing can merge or hoist a read that runs once (info: `volatile` is still the
// contract for a clock read).
__global__ void seed(unsigned* state) {
  unsigned hi, lo;
  asm("mov.b32 %0, %%clock_hi;" : "=r"(hi));  // expect: missing-volatile(info), prefer-cuda-ptx(info)
  asm("mov.b32 %0, %%globaltimer_lo;" : "=r"(lo));  // expect: missing-volatile(info), prefer-cuda-ptx(info)
  state[threadIdx.x] = hi ^ (lo << 7) ^ threadIdx.x;
}
