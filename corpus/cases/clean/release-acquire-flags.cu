// Inter-block hand-off: one block publishes a result with st.release and raises a flag, another
// polls the flag with ld.acquire in a volatile asm with "memory", then reads the result.
// Tickets come from a generic atom; a final fence uses the wrapped fence form.
#include <cstdint>

__device__ __forceinline__ void st_release(unsigned* p, unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("st.release.gpu.u32 [%0], %1;\n" :: "l"(p), "r"(v) : "memory");
#else
  __threadfence();
  *reinterpret_cast<volatile unsigned*>(p) = v;
#endif
}

__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
  unsigned v;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("ld.acquire.gpu.u32 %0, [%1];\n" : "=r"(v) : "l"(p) : "memory");
#else
  v = *reinterpret_cast<const volatile unsigned*>(p);
  __threadfence();
#endif
  return v;
}

__device__ __forceinline__ unsigned take_ticket(unsigned* counter) {
  unsigned t;
  asm volatile("atom.add.u32 %0, [%1], 1;\n" : "=r"(t) : "l"(counter) : "memory");
  return t;
}

__device__ __forceinline__ void full_fence() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  asm volatile("fence.acq_rel.gpu;\n" ::: "memory");  // expect: prefer-cuda-ptx(info)
#endif
}

__global__ void hand_off(float* result, unsigned* flag, unsigned* counter, float* out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      result[0] = 3.5f;
      st_release(flag, 1u);
    }
  } else if (threadIdx.x == 0) {
    while (ld_acquire(flag) == 0) {
    }
    out[blockIdx.x] = result[0] + static_cast<float>(take_ticket(counter));
    full_fence();
  }
}
