// prefer-cuda-ptx (info): reading %cluster_ctarank is cuda::ptx::get_sreg_cluster_ctarank.
__device__ unsigned cluster_rank() {
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));  // expect: prefer-cuda-ptx(info)
#endif
  return r;
}

__global__ void k(unsigned* out) {
  out[blockIdx.x] = cluster_rank();
}
