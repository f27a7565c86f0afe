// early-clobber: the output is zeroed before the guarded load reads its 32-bit shared address:
// both are 32-bit registers, so without "&" they may be the same one and the load reads from
// address 0.
#include <cstdint>

__device__ uint32_t load_or_zero(uint32_t addr, uint32_t in_bounds) {
  uint32_t v;
  asm volatile("{\n\t"
               ".reg .pred ok;\n\t"
               "setp.ne.u32 ok, %2, 0;\n\t"
               "mov.u32 %0, 0;\n\t"
               "@ok ld.shared.u32 %0, [%1];\n\t"
               "}"
               : "=r"(v)  // expect: early-clobber(info)
               : "r"(addr), "r"(in_bounds)
               : "memory");
  return v;
}

__global__ void k(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t s[64];
  s[threadIdx.x & 63] = in[threadIdx.x];
  __syncthreads();
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&s[(threadIdx.x + 1) & 63]));
  out[threadIdx.x] = load_or_zero(a, threadIdx.x < 60);
}
