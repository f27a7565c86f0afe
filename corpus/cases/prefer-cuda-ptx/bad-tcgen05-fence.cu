// prefer-cuda-ptx (info): a template that is one tcgen05 fence is
// cuda::ptx::tcgen05_fence_before_thread_sync() / tcgen05_fence_after_thread_sync() (CCCL 2.8.0).
__device__ void order_tensor_memory_around_sync() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000 && defined(__CUDA_ARCH_FEAT_SM100_ALL)
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");  // expect: prefer-cuda-ptx(info)
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__global__ void k(float* out) {
  order_tensor_memory_around_sync();
  out[threadIdx.x] = 1.0f;
}
