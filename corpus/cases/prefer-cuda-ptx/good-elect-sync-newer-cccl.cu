// Correct for the default CCCL 3.0: cuda::ptx::elect_sync arrived in CCCL 3.1.
__device__ unsigned elected() {
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t"
               ".reg .pred leader;\n\t"
               "elect.sync _|leader, %1;\n\t"
               "selp.u32 %0, 1, 0, leader;\n\t"
               "}"
               : "=r"(r)
               : "r"(0xffffffffu));
#endif
  return r;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = elected();
}
