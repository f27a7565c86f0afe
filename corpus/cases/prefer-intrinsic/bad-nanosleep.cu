// prefer-intrinsic (info): nanosleep.u32 is __nanosleep().
__device__ void back_off(unsigned ns) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("nanosleep.u32 %0;" :: "r"(ns));  // expect: prefer-intrinsic(info)
#endif
}

__global__ void k(const unsigned* flag, unsigned* out) {
  unsigned ns = 32;
  while (*reinterpret_cast<const volatile unsigned*>(flag) == 0) {
    back_off(ns);
    ns = ns < 4096 ? ns * 2 : ns;
  }
  out[threadIdx.x] = 1u;
}
