// Front end: `template <int N> __device__ __forceinline__` functions, a template with a default
// argument and a variadic one, each holding asm.
#include <cstdint>

template <int N>
__device__ __forceinline__ void wait_pending() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %n0;" :: "n"(N) : "memory");  // expect: unsupported-modifier
#endif
}

template <int Bytes = 16, typename Ptr = const void*>
__device__ __forceinline__ void copy(uint32_t dst, Ptr src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], %2;"
               :: "r"(dst), "l"(__cvta_generic_to_global(src)), "n"(Bytes), "n"(0)  // expect: unused-operand(info)
               : "memory");
#endif
}

template <typename... Ts>
__device__ __forceinline__ unsigned count_args(Ts... xs) {
  unsigned r;
  asm("mov.u32 %0, %1;" : "=r"(r) : "r"(static_cast<unsigned>(sizeof...(xs))));
  return r;
}

__global__ void k(const int4* in, int4* out) {
  __shared__ int4 tile[32];
  copy(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x & 31])), in + threadIdx.x);
  wait_pending<0>();
  __syncthreads();
  out[threadIdx.x] = tile[31 - (threadIdx.x & 31)];
  out[threadIdx.x].x += count_args(1, 2.0f, 'c');
}
