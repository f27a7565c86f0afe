// arch-requirement: no targets are configured, but the file guards cp.async with
// __CUDA_ARCH__ >= 800, so it is built for a target below sm_80 too; the redux.sync in the other
// kernel has no guard and fails there.
// gpu: nvcc -arch=sm_75 fails: ptxas "Feature 'redux' requires .target sm_80 or higher"
#include <cstdint>

__global__ void stage(const int4* in, int4* out) {
  __shared__ int4 tile[32];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x & 31]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(__cvta_generic_to_global(in + threadIdx.x)) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
#else
  tile[threadIdx.x & 31] = in[threadIdx.x];
#endif
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x & 31];
}

__global__ void warp_min(const unsigned* in, unsigned* out) {
  unsigned r;
  asm volatile("redux.sync.min.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(in[threadIdx.x]));  // expect: arch-requirement, prefer-intrinsic(info)
  out[threadIdx.x] = r;
}
