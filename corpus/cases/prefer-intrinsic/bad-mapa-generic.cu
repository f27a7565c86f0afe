// prefer-intrinsic (info): the generic mapa (a generic shared pointer in, the same variable in
// another block of the cluster out) is __cluster_map_shared_rank().
#include <cstdint>

__device__ float* in_block(float* p, unsigned rank) {
  uint64_t r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mapa.u64 %0, %1, %2;"  // expect: prefer-intrinsic(info)
               : "=l"(r)
               : "l"(reinterpret_cast<uint64_t>(p)), "r"(rank));
#endif
  return reinterpret_cast<float*>(r);
}

__global__ void k(float* out) {
  __shared__ float s[32];
  s[threadIdx.x & 31] = 1.0f;
  out[threadIdx.x] = *in_block(&s[threadIdx.x & 31], 0u);
}
