// arch-requirement: a local constant that says nothing about the architecture guards
// nothing: redux.sync is compiled for sm_75 too.
// targets: sm_75, sm_80
// gpu: nvcc -arch=sm_75 fails: ptxas "Feature 'redux' requires .target sm_80 or higher"
// gpu-arch: sm_75
// gpu-bad: ptxas "Feature 'redux' requires .target sm_80 or higher"
__device__ __forceinline__ unsigned warp_max(unsigned v) {
  constexpr bool use_fast_path = true;
  if constexpr (use_fast_path) {
    unsigned r;
    asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;"  // expect: arch-requirement, prefer-intrinsic(info)
                 : "=r"(r)
                 : "r"(v));
    return r;
  }
  return v;
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = warp_max(in[threadIdx.x]);
}
