// Correct: this is the kind of code that implements cuda::ptx itself; the rule never suggests a
// wrapper inside it.
namespace cuda::ptx {

__device__ static inline void fence_proxy_async_shared_cta_impl() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

__device__ static inline unsigned bfind_impl(unsigned x) {
  unsigned r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x));
  return r;
}

}  // namespace cuda::ptx

__global__ void k(unsigned* out) {
  cuda::ptx::fence_proxy_async_shared_cta_impl();
  out[threadIdx.x] = cuda::ptx::bfind_impl(threadIdx.x + 1);
}
