// Correct: every operand is referenced, some only inside vectors or as a predicate source.
__device__ uint2 pick_pair(unsigned cond, uint2 a, uint2 b) {
  uint2 r;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      ".reg .b64 x, y;\n\t"
      "setp.ne.u32 p, %2, 0;\n\t"
      "mov.b64 x, {%3, %4};\n\t"
      "mov.b64 y, {%5, %6};\n\t"
      "selp.b64 x, x, y, p;\n\t"
      "mov.b64 {%0, %1}, x;\n\t"
      "}"
      : "=r"(r.x), "=r"(r.y)
      : "r"(cond), "r"(a.x), "r"(a.y), "r"(b.x), "r"(b.y));
  return r;
}

__global__ void k(const uint2* in, uint2* out) {
  unsigned t = threadIdx.x;
  out[t] = pick_pair(t & 1u, in[t], in[t + 1]);
}
