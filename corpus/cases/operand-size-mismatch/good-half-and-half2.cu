// Correct: "h" on the 16-bit pattern of a __half, "r" on the 32-bit pattern of a __half2.
// gpu-good: compiles
#include <cuda_fp16.h>

__device__ __half add_half(__half a, __half b) {
  unsigned short r;
  asm("add.f16 %0, %1, %2;"
      : "=h"(r)
      : "h"(__half_as_ushort(a)), "h"(__half_as_ushort(b)));
  return __ushort_as_half(r);
}

__device__ __half2 mul_half2(__half2 a, __half2 b) {
  unsigned r;
  unsigned ua = *reinterpret_cast<unsigned*>(&a);
  unsigned ub = *reinterpret_cast<unsigned*>(&b);
  asm("mul.f16x2 %0, %1, %2;" : "=r"(r) : "r"(ua), "r"(ub));
  return *reinterpret_cast<__half2*>(&r);
}

__global__ void halves(const __half* a, const __half2* b, __half* out, __half2* out2) {
  unsigned t = threadIdx.x;
  out[t] = add_half(a[t], a[t + 1]);
  out2[t] = mul_half2(b[t], b[t]);
}
