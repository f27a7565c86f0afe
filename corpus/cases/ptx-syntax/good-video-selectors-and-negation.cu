// Correct: video instructions select bytes or half-words of a register (`u0.h1`, `%1.b0`) and
// `vmad` negates its sources (`-%1`); the PTX ISA's video instructions allow both (ptxas not
// yet probed for these forms here).
__device__ unsigned pack_high_halves(float a, float b) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 u0, u1;\n\t"
      "mov.b32 u0, %1;\n\t"
      "mov.b32 u1, %2;\n\t"
      "vadd.u32.u32.u32 %0.h0, u0.h1, 0, u1;\n\t"
      "}"
      : "=r"(r)
      : "f"(a), "f"(b));
  return r;
}

__device__ int mod16(int numerator, int div, int maxdiv) {
  int res;
  asm("vmad.s32.u32.u32 %0, -%1.h0, %2.h0, %3;" : "=r"(res) : "r"(div), "r"(maxdiv), "r"(numerator));
  return res;
}

__global__ void k(const float* in, unsigned* out, int* m) {
  out[threadIdx.x] = pack_high_halves(in[0], in[1]);
  m[threadIdx.x] = mod16(threadIdx.x, 3, 48);
}
