// address-register-width: a 16-bit ("h") register as the address of ld.local. ptxas (nvcc 13.0,
// sm_90a) accepted this form.
#include <cstdint>

__device__ uint32_t read_spill(unsigned short off) {
  uint32_t v;
  asm volatile("ld.local.u32 %0, [%1];"
               : "=r"(v)
               : "h"(off)  // expect: address-register-width
               : "memory");
  return v;
}

__global__ void spill_reader(uint32_t* out) {
  out[threadIdx.x] = read_spill(static_cast<unsigned short>(threadIdx.x * 4));
}
