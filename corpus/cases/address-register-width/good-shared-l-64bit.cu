// Correct: a 64-bit shared-window address ("l" on the size_t from __cvta_generic_to_shared) is a
// valid .shared address too.
// gpu-good: compiles
#include <cstdint>

__device__ __forceinline__ void put(float* slot, float v) {
  asm volatile("st.shared.f32 [%0], %1;"
               :: "l"(__cvta_generic_to_shared(slot)), "f"(v)
               : "memory");
}

__device__ __forceinline__ float get(const float* slot) {
  float v;
  size_t a = __cvta_generic_to_shared(slot);
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "l"(a) : "memory");
  return v;
}

__global__ void rotate(const float* in, float* out) {
  __shared__ float s[128];
  put(&s[threadIdx.x], in[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = get(&s[(threadIdx.x + 1) & 127]);
}
