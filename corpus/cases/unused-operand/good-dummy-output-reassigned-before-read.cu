// unused-operand, info only: a scratch "=r" output the template never writes, then assigned
// before anything reads it: the garbage is overwritten unread. (Still worth cleaning up: the
// operand could simply be dropped.)
__device__ unsigned arrive(unsigned long long bar) {
  unsigned dummy;
  asm volatile("mbarrier.arrive.shared.b64 _, [%1];"  // expect: prefer-cuda-ptx(info)
               : "=r"(dummy)  // expect: unused-operand(info)
               : "l"(bar)
               : "memory");
  dummy = 0;
  return dummy;
}

__global__ void k(unsigned long long bar, unsigned* out) { out[threadIdx.x] = arrive(bar); }
