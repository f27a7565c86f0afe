// Correct: "r" registers are .b32 and fit an .f32 operand (add.f32, setp.f32); "f" fits .b32
// (and.b32, mov.b32).
// gpu-good: compiles
__device__ float add_bits_as_float(float a, float b) {
  unsigned r;
  asm("add.f32 %0, %1, %2;" : "=r"(r) : "r"(__float_as_uint(a)), "r"(__float_as_uint(b)));
  return __uint_as_float(r);
}

__device__ float abs_by_mask(float x) {
  float r;
  asm("and.b32 %0, %1, 0x7fffffff;" : "=f"(r) : "f"(x));
  return r;
}

__device__ float copy_bits(float x) {
  float r;
  asm("mov.b32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

__device__ unsigned is_less(float a, float b) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.lt.f32 p, %1, %2;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t"
      "}"
      : "=r"(r)
      : "r"(__float_as_uint(a)), "f"(b));
  return r;
}

__global__ void k(const float* in, float* out, unsigned* flags) {
  unsigned t = threadIdx.x;
  out[t] = add_bits_as_float(in[t], 1.0f) + abs_by_mask(in[t]) + copy_bits(in[t]);
  flags[t] = is_less(in[t], 0.5f);
}
