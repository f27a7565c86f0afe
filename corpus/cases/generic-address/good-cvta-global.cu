// Correct: .global instructions given __cvta_generic_to_global(p).
__device__ float2 load2(const float2* p) {
  float2 v;
  asm volatile("ld.global.v2.f32 {%0, %1}, [%2];"
               : "=f"(v.x), "=f"(v.y)
               : "l"(__cvta_generic_to_global(p))
               : "memory");
  return v;
}

__device__ void store2(float2* p, float2 v) {
  size_t g = __cvta_generic_to_global(p);
  asm volatile("st.global.v2.f32 [%0], {%1, %2};" :: "l"(g), "f"(v.x), "f"(v.y) : "memory");
}

__global__ void k(const float2* in, float2* out) {
  store2(out + threadIdx.x, load2(in + threadIdx.x));
}
