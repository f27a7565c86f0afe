// Correct: comments between operands, and commas that sit after a comment.
__device__ unsigned select(unsigned cond, unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.ne.u32 p, %1, 0;\n\t"
      "selp.b32 %0, %2, %3, p;\n\t"
      "}"
      : "=r"(r)  /* result */
      : "r"(cond) /* predicate source */ ,
        "r"(a),   // taken when cond != 0
        "r"(b)    // taken otherwise
  );
  return r;
}

__global__ void k(unsigned* v) {
  unsigned t = threadIdx.x;
  v[t] = select(t & 1u, v[t], 0u);
}
