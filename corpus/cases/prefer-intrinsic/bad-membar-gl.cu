// prefer-intrinsic (info): membar.gl is __threadfence().
__device__ void publish(unsigned* data, unsigned* flag, unsigned v) {
  *data = v;
  asm volatile("membar.gl;" ::: "memory");  // expect: prefer-intrinsic(info)
  atomicExch(flag, 1u);
}

__global__ void k(unsigned* data, unsigned* flag) {
  if (threadIdx.x == 0) publish(data, flag, 42u);
}
