// Correct: a local `constexpr bool` set from a macro about the architecture guards an
// `if constexpr`: the discarded branch is not compiled where the macro is false.
// targets: sm_75, sm_90
// gpu: compiles for sm_75 and sm_90 (measured, nvcc 13.0.88)
// gpu-arch: sm_75 sm_90
// gpu-good: compiles
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define ARCH_HAS_REDUX true
#else
#define ARCH_HAS_REDUX false
#endif

__device__ __forceinline__ unsigned warp_max(unsigned v) {
  constexpr bool has_redux = ARCH_HAS_REDUX;
  if constexpr (has_redux) {
    unsigned r;
    asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));  // expect: prefer-intrinsic(info)
    return r;
  } else {
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
  }
}

__global__ void k(const unsigned* in, unsigned* out) {
  out[threadIdx.x] = warp_max(in[threadIdx.x]);
}
