// unscoped-declaration: the first asm declares `t` only for itself (loud) and `acc` for the
// second one to use (shared on purpose: info, no fix). Wrapping the template in `{ }` would
// also hide `acc` from the second asm, so the loud finding offers no fix either (it did when
// `t` came first).
__device__ __forceinline__ float twice(float x) {
  float r;
  asm(".reg .f32 t;\n\t"  // expect: unscoped-declaration
      ".reg .f32 acc;\n\t"  // expect: unscoped-declaration(info)
      "add.f32 t, %0, %0;\n\t"
      "mov.f32 acc, t;" :: "f"(x));
  asm("mov.f32 %0, acc;" : "=f"(r));
  return r;
}

__global__ void k(float* out) { out[threadIdx.x] = twice(out[threadIdx.x]); }
