// Correct: instructions every supported target has need no guard.
// gpu-good: compiles
#include <cstdint>

__device__ unsigned mix(unsigned a, unsigned b, unsigned c) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "lop3.b32 t, %1, %2, %3, 0xe8;\n\t"
      "bfe.u32 t, t, 3, 17;\n\t"
      "mad.lo.u32 %0, t, 2654435761, %3;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b), "r"(c));
  return r;
}

__device__ unsigned ticket(unsigned* p) {
  unsigned t;
  asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(t) : "l"(p) : "memory");
  return t;
}

__device__ float4 load4(const float4* p) {
  float4 v;
  asm volatile("ld.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(p)
               : "memory");
  return v;
}

__global__ void k(unsigned* counter, const float4* in, float4* out, unsigned* h) {
  unsigned t = threadIdx.x;
  h[t] = mix(t, ticket(counter), 0x1234u);
  out[t] = load4(in + t);
}
