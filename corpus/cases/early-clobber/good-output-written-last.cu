// Correct: intermediate values live in template registers; the output is written by the last
// instruction, after every input has been read.
__device__ float lerp(float a, float b, float t) {
  float r;
  asm("{\n\t"
      ".reg .f32 d;\n\t"
      "sub.f32 d, %2, %1;\n\t"
      "mul.f32 d, d, %3;\n\t"
      "add.f32 %0, d, %1;\n\t"
      "}"
      : "=f"(r)
      : "f"(a), "f"(b), "f"(t));
  return r;
}

__device__ void swap_pair(unsigned a, unsigned b, unsigned& x, unsigned& y) {
  asm("{\n\t"
      ".reg .b64 t;\n\t"
      "mov.b64 t, {%3, %2};\n\t"
      "mov.b64 {%0, %1}, t;\n\t"
      "}"
      : "=r"(x), "=r"(y)
      : "r"(a), "r"(b));
}

__global__ void k(float* v, unsigned* u) {
  v[threadIdx.x] = lerp(v[threadIdx.x], 1.0f, 0.25f);
  unsigned x, y;
  swap_pair(u[2 * threadIdx.x], u[2 * threadIdx.x + 1], x, y);
  u[2 * threadIdx.x] = x + y;
}
