// operand-size-mismatch: `p` is a pointer whatever its type's spelling (an ALL-CAPS typedef
// in a parameter list, a declaration after an attribute): 64 bits in a 32-bit `r`.
typedef float FP32;

__device__ float load_first(FP32* p) {
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "r"(p));  // expect: operand-size-mismatch, missing-memory-clobber(info)
  return v;
}

__device__ float load_second(float* q) {
  [[maybe_unused]] float* p = q + 1;
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "r"(p));  // expect: operand-size-mismatch, missing-memory-clobber(info)
  return v;
}
