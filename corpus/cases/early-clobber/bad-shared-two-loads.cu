// early-clobber: the first load writes %0 before the second load reads the address %2 again.
// If the allocator gives %0 and %2 the same register, the second load uses the loaded value as
// its address.
// gpu-launch: k<<<1, 32>>>(in: u32[64] = iota, out: u32[32] = 0)
// gpu-bad: out[0] != 1
// gpu-good: out[0] == 1
#include <cstdint>

__device__ void ld_pair(uint32_t addr, uint32_t& lo, uint32_t& hi) {
  asm volatile("ld.shared.u32 %0, [%2];\n\t"
               "ld.shared.u32 %1, [%2+4];"
               : "=r"(lo),  // expect: early-clobber(info)
                 "=r"(hi)
               : "r"(addr)
               : "memory");
}

__global__ void k(const uint2* in, uint32_t* out) {
  __shared__ uint2 s[32];
  s[threadIdx.x & 31] = in[threadIdx.x];
  __syncthreads();
  uint32_t lo, hi;
  ld_pair(static_cast<uint32_t>(__cvta_generic_to_shared(&s[31 - (threadIdx.x & 31)])), lo, hi);
  out[threadIdx.x] = lo ^ hi;
}
