// Correct as far as the file shows: it guards an sm_90 instruction with __CUDA_ARCH__ >= 900, so
// it is built for some target below sm_90, but that may be sm_80, where the unguarded redux.sync
// builds. Only a target list (or a guard below sm_80) would say more.
__global__ void ranks(unsigned* out) {
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));  // expect: prefer-cuda-ptx(info)
#endif
  out[threadIdx.x] = r;
}

__global__ void warp_min(const unsigned* in, unsigned* out) {
  unsigned r;
  asm volatile("redux.sync.min.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(in[threadIdx.x]));  // expect: prefer-intrinsic(info)
  out[threadIdx.x] = r;
}
