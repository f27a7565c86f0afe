// write-to-input: an input reused as a scratch register for an intermediate result.
__device__ unsigned pack_half2(float lo, float hi, unsigned bits) {
  unsigned r;
  asm("{\n\t"
      "cvt.rn.f16x2.f32 %3, %2, %1;\n\t"  // expect: write-to-input
      "xor.b32 %0, %3, 0x80008000;\n\t"
      "}"
      : "=r"(r)
      : "f"(lo), "f"(hi), "r"(bits));
  return r;
}

__global__ void k(const float2* in, unsigned* out) {
  float2 v = in[threadIdx.x];
  out[threadIdx.x] = pack_half2(v.x, v.y, 0u);
}
