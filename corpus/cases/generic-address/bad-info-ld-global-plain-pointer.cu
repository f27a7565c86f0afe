// generic-address (info): ld.global given a plain (generic) pointer. It works because global
// addresses are identity-mapped, but __cvta_generic_to_global(p) says what is meant.
// gpu-launch: k<<<1, 32>>>(in: f32[64] = iota, out: f32[64] = 0)
// gpu-bad: out[5] == 5
// gpu-good: out[5] == 5
__device__ float2 load2(const float2* p) {
  float2 v;
  asm volatile("ld.global.v2.f32 {%0, %1}, [%2];"
               : "=f"(v.x), "=f"(v.y)
               : "l"(p)  // expect: generic-address(info)
               : "memory");
  return v;
}

__global__ void k(const float2* in, float2* out) {
  out[threadIdx.x] = load2(in + threadIdx.x);
}
