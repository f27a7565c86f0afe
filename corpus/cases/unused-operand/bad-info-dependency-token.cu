// unused-operand (info): the template only copies the pointer; the second input is passed so
// that the result depends on it (a dependency token: whatever produced `token` runs first),
// not data the template forgot.
#include <cstdint>

__device__ const float* after(const float* ptr, uint32_t token) {
  const float* out;
  asm volatile("mov.b64 %0, %1;" : "=l"(out) : "l"(ptr), "r"(token));  // expect: unused-operand(info)
  return out;
}

__global__ void k(const float* in, const uint32_t* flags, float* res) {
  res[threadIdx.x] = *after(in + threadIdx.x, flags[0]);
}
