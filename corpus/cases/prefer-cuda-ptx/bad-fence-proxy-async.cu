// prefer-cuda-ptx (info): fence.proxy.async.shared::cta is cuda::ptx::fence_proxy_async
// (<cuda/ptx>, CCCL 2.4.0).
__device__ void publish_to_async_proxy() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__global__ void k(float* out) {
  __shared__ float s[32];
  s[threadIdx.x & 31] = 1.0f;
  publish_to_async_proxy();
  __syncthreads();
  out[threadIdx.x] = s[31 - (threadIdx.x & 31)];
}
