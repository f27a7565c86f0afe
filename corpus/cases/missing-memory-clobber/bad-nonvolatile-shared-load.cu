// missing-memory-clobber (warning): a non-volatile load with no "memory": the compiler may move it
// across the C++ store that fills the buffer, or reuse an older result.
// gpu: launch k<<<1,32>>>(in = iota); out[i] must be 2 * in[i]; with the loads merged it is in[i]
// gpu-launch: k<<<1, 32>>>(in: u32[32] = iota, out: u32[32] = 0)
// gpu-bad: out[31] != 62
// gpu-good: out[1] == 2 && out[31] == 62
#include <cstdint>

__device__ uint32_t peek(uint32_t a) {
  uint32_t v;
  asm("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));  // expect: missing-memory-clobber(warning)
  return v;
}

__global__ void k(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t s[64];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&s[threadIdx.x]));
  s[threadIdx.x] = in[threadIdx.x];
  uint32_t first = peek(a);
  s[threadIdx.x] = first * 2u;
  out[threadIdx.x] = peek(a);
}
