// missing-memory-clobber (info): `fence.proxy.async.shared::cta` orders only accesses of shared
// memory (the PTX ISA restricts a proxy fence with a state space to that space); the C++
// beside it reads a kernel parameter's global memory only, which the fence does not order.
#include <cstdint>

__global__ void fence_then_read_global(const float* scale, float* out) {
  asm volatile("fence.proxy.async.shared::cta;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  float s = scale[blockIdx.x];
  out[threadIdx.x] = s;
}
