// address-register-width: a generic st (no state space) given the 32-bit shared-window address
// from __cvta_generic_to_shared. Generic addresses are 64-bit; the instruction should be st.shared.
// gpu: nvcc -arch=sm_90 fails: ptxas "Program uses 32-bit address ..." then "32-Bit ABI ... is not supported on sm_90 or higher" (measured, nvcc 13.0.88)
// gpu-bad: ptxas "Program uses 32-bit address"
// gpu-bad: ptxas "32-Bit ABI"
#include <cstdint>

__device__ void stash(uint32_t slot_addr, uint32_t value) {
  asm volatile("st.u32 [%0], %1;"
               :: "r"(slot_addr),  // expect: address-register-width
                  "r"(value)
               : "memory");
}

__global__ void stage(const uint32_t* in, uint32_t* out) {
  __shared__ uint32_t tile[128];
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  stash(a, in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = tile[127 - threadIdx.x];
}
