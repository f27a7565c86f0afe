// Correct as far as address width goes: .local addresses fit in 32 (even 16) bits, and ptxas
// (nvcc 13.0, sm_90a) accepts a 16-bit ("h") register as the address of ld.local. Only generic
// and .global addresses need 64-bit registers.
// gpu: compiles (ptxas accepts the 16-bit .local address; measured with nvcc 13.0.88)
// gpu-good: compiles
#include <cstdint>

__device__ uint32_t read_spill(unsigned short off) {
  uint32_t v;
  asm volatile("ld.local.u32 %0, [%1];"
               : "=r"(v)
               : "h"(off)
               : "memory");
  return v;
}

__global__ void spill_reader(uint32_t* out) {
  out[threadIdx.x] = read_spill(static_cast<unsigned short>(threadIdx.x * 4));
}
