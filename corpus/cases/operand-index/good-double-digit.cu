// Correct: twelve operands, the last one %11.
// gpu-good: compiles
__device__ void unpack(uint4 a, uint4 b, unsigned (&o)[4]) {
  asm("{\n\t"
      ".reg .u32 t0, t1, t2, t3;\n\t"
      "add.u32 t0, %4, %8;\n\t"
      "add.u32 t1, %5, %9;\n\t"
      "add.u32 t2, %6, %10;\n\t"
      "add.u32 t3, %7, %11;\n\t"
      "mov.u32 %0, t0;\n\t"
      "mov.u32 %1, t1;\n\t"
      "mov.u32 %2, t2;\n\t"
      "mov.u32 %3, t3;\n\t"
      "}"
      : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3])
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b.x), "r"(b.y), "r"(b.z), "r"(b.w));
}

__global__ void k(const uint4* in, unsigned* out) {
  unsigned o[4];
  unpack(in[threadIdx.x], in[threadIdx.x + 1], o);
  for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = o[i];
}
