// prefer-intrinsic (info): ld.global.cg is __ldcg(). The intrinsic is itself inline asm in
// NVIDIA's header (the same instruction), so the message says that instead of an optimizer
// advantage.
__device__ float load_l2_only(const float* p) {
  float v;
  asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(__cvta_generic_to_global(p)) : "memory");  // expect: prefer-intrinsic(info)
  return v;
}

__global__ void k(const float* in, float* out) {
  out[threadIdx.x] = load_l2_only(in + threadIdx.x);
}
