// Correct: "n" is the only way to give a template constant to an operand that must be an
// immediate: cp.async.wait_group N, the cp.async copy size, the lop3 look-up table.
// gpu-good: compiles
#include <cstdint>

template <int Pending>
__device__ __forceinline__ void wait_group() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" :: "n"(Pending) : "memory");
#endif
}

template <int Bytes>
__device__ __forceinline__ void copy_async(uint32_t dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;"
               :: "r"(dst), "l"(__cvta_generic_to_global(src)), "n"(Bytes)
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

template <unsigned char Lut>
__device__ __forceinline__ unsigned lop3(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(Lut));
  return r;
}

__global__ void k(const int* src, unsigned* out) {
  __shared__ int s[128];
  copy_async<4>(static_cast<uint32_t>(__cvta_generic_to_shared(&s[threadIdx.x])), src + threadIdx.x);
  wait_group<0>();
  __syncthreads();
  unsigned t = threadIdx.x;
  out[t] = lop3<0x96>(static_cast<unsigned>(s[t]), t, 0x1234u);
}
