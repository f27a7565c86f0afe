// missing-memory-clobber (info): a volatile asm that only reads memory, without "memory": it
// cannot be deleted, but the compiler may still move C++ stores to the same location past it.
#include <cstdint>

__device__ uint2 ld2(uint32_t a) {
  uint2 v;
  asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];"  // expect: missing-memory-clobber(info)
               : "=r"(v.x), "=r"(v.y)
               : "r"(a));
  return v;
}

__global__ void k(const uint2* in, uint2* out) {
  __shared__ uint2 s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = ld2(static_cast<uint32_t>(__cvta_generic_to_shared(&s[63 - threadIdx.x])));
}
