// address-register-width: a generic mbarrier.init (no .shared) given a 32-bit shared-window
// address. Generic addresses are 64-bit: write mbarrier.init.shared.b64, or pass "l".
// gpu: nvcc -arch=sm_90a fails: ptxas "Program uses 32-bit address ... conflicting with .address_size 64" (measured with nvcc 13.0.88)
// gpu-arch: sm_90a
// gpu-bad: ptxas "Program uses 32-bit address"
#include <cstdint>

__device__ __forceinline__ void init_barrier(uint32_t bar_addr, uint32_t count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.b64 [%0], %1;"
               :: "r"(bar_addr),  // expect: address-register-width
                  "r"(count)
               : "memory");
#endif
}

__global__ void k(uint32_t* out) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) init_barrier(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)), 32);
  __syncthreads();
  out[threadIdx.x] = 1;
}
