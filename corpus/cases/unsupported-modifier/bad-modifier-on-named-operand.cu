// unsupported-modifier: a modifier in front of a named operand (%c[pending]).
// gpu: nvcc -arch=sm_90 fails in ptxas: "Array indexing on non-array" (nvcc does not take %c[name] as a modifier; it passes it on) (measured)
// gpu-bad: ptxas "Array indexing on non-array"
template <int Pending>
__device__ __forceinline__ void pending_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %c[pending];"  // expect: operand-index, unsupported-modifier
               :: [pending] "n"(Pending)
               : "memory");
#endif
}

__global__ void k(float* out) {
  pending_wait<0>();
  out[threadIdx.x] = 1.0f;
}
