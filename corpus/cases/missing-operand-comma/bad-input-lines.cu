// missing-operand-comma: a long input list, one per line, where one comma went missing; the
// finding is on the line of the operand that follows the gap.
__device__ unsigned mix4(unsigned a, unsigned b, unsigned c, unsigned d) {
  unsigned r;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "xor.b32 t, %1, %2;\n\t"
      "xor.b32 t, t, %3;\n\t"
      "xor.b32 %0, t, %4;\n\t"
      "}"
      : "=r"(r)
      : "r"(a),
        "r"(b)
        "r"(c),  // expect: missing-operand-comma
        "r"(d));
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = mix4(v[t], t, 3u, 9u);
}
