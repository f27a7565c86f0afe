// Correct: every declaration sits inside { }, so the template can be inlined any number of times.
// gpu-good: compiles
__device__ __forceinline__ unsigned mix(unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t1;\n\t"
      "xor.b32 t1, %1, %2;\n\t"
      "mad.lo.u32 %0, t1, 2654435761, %2;\n\t"
      "}"
      : "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

__global__ void k(const unsigned* in, unsigned* out) {
  unsigned t = threadIdx.x;
  out[t] = mix(in[t], 7u) + mix(in[t + 1], 11u) + mix(in[t + 2], 13u);
}
