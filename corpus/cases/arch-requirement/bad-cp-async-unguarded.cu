// arch-requirement: cp.async needs sm_80.
// targets: sm_75, sm_80
// gpu: nvcc -arch=sm_75 fails: ptxas "Feature 'cp.async' requires .target sm_80 or higher" (measured)
// gpu-arch: sm_75
// gpu-bad: ptxas "Feature 'cp.async' requires .target sm_80 or higher"
#include <cstdint>

__device__ void copy16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"  // expect: arch-requirement
               :: "r"(dst), "l"(__cvta_generic_to_global(src))
               : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");  // expect: arch-requirement
}

__global__ void k(const int4* in, int4* out) {
  __shared__ int4 tile[32];
  copy16(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x & 31])), in + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[31 - (threadIdx.x & 31)];
}
