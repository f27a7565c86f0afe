// Correct: video instructions select bytes or half-words of a register (`u0.h1`, `%1.b0`) and
// `vmad` negates its sources (`-%1`); the PTX ISA's video instructions allow both (ptxas 13.0
// accepted `vadd ... r0.h0, r1.h1, r2.b0`, `vmad ... -r1.h0` and `vadd4 ... .b3210` for sm_80
// and sm_90a; it rejected `-` on `vadd`'s and `add`'s sources: gpu-tests/measure/ptxas-accepts.sh).
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
