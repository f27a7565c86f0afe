// Correct: scratch values live in registers declared inside the template; inputs are only read.
__device__ unsigned bump_and_add(unsigned x, unsigned d) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "add.u32 t, %1, %2;\n\t"
      "add.u32 %0, t, %1;\n\t"
      "}"
      : "=r"(r)
      : "r"(x), "r"(d));
  return r;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = bump_and_add(threadIdx.x, 3u);
}
