// Correct: setmaxnreg needs an immediate register count; "n" passes a template constant.
// gpu-good: compiles
template <int Regs>
__device__ __forceinline__ void grow_registers() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(Regs));
#endif
}

template <int Regs>
__device__ __forceinline__ void shrink_registers() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" :: "n"(Regs));
#endif
}

__global__ void __launch_bounds__(384) k(float* out) {
  if (threadIdx.x >= 128) {
    grow_registers<240>();
    out[threadIdx.x] = 1.0f;
  } else {
    shrink_registers<40>();
    out[threadIdx.x] = 2.0f;
  }
}
