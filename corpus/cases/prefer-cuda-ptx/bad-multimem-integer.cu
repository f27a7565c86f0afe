// prefer-cuda-ptx (info): integer multimem forms are cuda::ptx::multimem_red / multimem_ld_reduce
// (CCCL 2.8.0). Without qualifiers, multimem.ld_reduce is .weak and multimem.red .relaxed.sys
// (PTX ISA), the forms the wrappers emit.
__device__ unsigned total_across_gpus(const unsigned* mc) {
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("multimem.ld_reduce.global.add.u32 %0, [%1];"  // expect: prefer-cuda-ptx(info)
               : "=r"(r)
               : "l"(__cvta_generic_to_global(mc))
               : "memory");
#endif
  return r;
}

__device__ void count_everywhere(unsigned* mc, unsigned n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("multimem.red.global.add.u32 [%0], %1;" :: "l"(__cvta_generic_to_global(mc)), "r"(n) : "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__global__ void k(unsigned* mc, unsigned* out) {
  out[threadIdx.x] = total_across_gpus(mc + threadIdx.x);
  count_everywhere(mc + threadIdx.x, 1u);
}
