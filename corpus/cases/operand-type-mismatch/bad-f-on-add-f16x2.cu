// operand-type-mismatch: `"f"` registers for a packed `.f16x2` add. `.f16x2` shares size and
// float-ness with `.f32`, but ptxas 13.0 rejects `.f32` registers for it (`Arguments mismatch for
// instruction 'add'`, measured on sm_90): the operands are `.b32`.
__device__ float add_halves(float a, float b) {
  float r;
  asm("add.rn.f16x2 %0, %1, %2;"
      : "=f"(r)  // expect: operand-type-mismatch
      : "f"(a),  // expect: operand-type-mismatch
        "f"(b));  // expect: operand-type-mismatch
  return r;
}
