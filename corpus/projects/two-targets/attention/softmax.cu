// Built for sm_80 and sm_90a: `cp.async` (sm_80) is fine on both; `setmaxnreg` needs an
// arch-specific target and is guarded; `elect.sync` (sm_90) is not guarded: a finding for sm_80.
#include "reduce.cuh"

#ifndef USE_FAST_EXP
#define USE_FAST_EXP 0
#endif

__global__ void softmax(const float* in, float* out, unsigned* sums) {
  __shared__ float tile[32];
  unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem), "l"(in + threadIdx.x) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 240;" ::: "memory");
#endif
#if USE_FAST_EXP
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(tile[threadIdx.x]));
  out[threadIdx.x] = e;
#else
  out[threadIdx.x] = tile[threadIdx.x];
#endif
  unsigned leader;
  asm volatile("{\n .reg .pred p;\n elect.sync %0|p, 0xffffffff;\n}" : "=r"(leader));
  sums[threadIdx.x] = warp_sum(leader);
}
