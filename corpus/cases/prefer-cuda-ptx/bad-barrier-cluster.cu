// prefer-cuda-ptx (info): barrier.cluster.arrive.release / wait.acquire are
// cuda::ptx::barrier_cluster_arrive / barrier_cluster_wait.
__device__ void cluster_sync() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release;" ::: "memory");  // expect: prefer-cuda-ptx(info)
  asm volatile("barrier.cluster.wait.acquire;" ::: "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__global__ void k(float* out) {
  cluster_sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
