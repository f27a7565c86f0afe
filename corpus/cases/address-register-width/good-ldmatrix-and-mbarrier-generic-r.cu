// Correct: instructions ptxas treats as shared memory take a 32-bit shared address even without
// a state space (measured with nvcc 13.0.88, sm_90a: ldmatrix/stmatrix without .shared and
// cp.async.mbarrier.arrive.b64 assemble with a 32-bit register; generic mbarrier.init does not).
// gpu: compiles for sm_90a (measured, nvcc 13.0.88)
// gpu-arch: sm_90a
// gpu-good: compiles
#include <cstdint>

__device__ __forceinline__ uint32_t ld_frag(uint32_t smem_addr) {
  uint32_t r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.b16 {%0}, [%1];" : "=r"(r) : "r"(smem_addr) : "memory");
#endif
  return r;
}

__device__ __forceinline__ void arrive_on_copies(uint32_t bar_addr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.mbarrier.arrive.b64 [%0];" :: "r"(bar_addr) : "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__global__ void k(uint32_t* out) {
  __shared__ __align__(16) uint16_t tile[8 * 8];
  __shared__ uint64_t bar;
  tile[threadIdx.x & 63] = static_cast<uint16_t>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = ld_frag(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[(threadIdx.x & 7) * 8])));
  arrive_on_copies(static_cast<uint32_t>(__cvta_generic_to_shared(&bar)));
}
