// Built for sm_75 and sm_80: cp.async needs sm_80 and is guarded.
__global__ void stage(const int4* in, int4* out) {
  __shared__ int4 buf[128];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&buf[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(in + threadIdx.x));
  asm volatile("cp.async.wait_all;" ::: "memory");
#else
  buf[threadIdx.x] = in[threadIdx.x];
#endif
  __syncthreads();
  out[threadIdx.x] = buf[PIPELINE_STAGES * 0 + threadIdx.x];
}
