// ptx-syntax (info): a template nothing instantiates is never compiled, so ptxas never sees
// the pre-release `elect.one.sync`: info until something uses the template.
// gpu: nvcc -arch=sm_90a compiles: the template is never instantiated (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: compiles
template <int Mask>
__device__ unsigned elect_leader() {
  unsigned leader = 0;
  asm volatile(
      "{\n\t.reg .b32 r;\n\t.reg .pred p;\n\t"
      "elect.one.sync r|p, %1;\n\t"  // expect: ptx-syntax(info)
      "@p mov.u32 %0, 1;\n\t}"
      : "+r"(leader)
      : "r"(Mask));
  return leader;
}

__global__ void k(unsigned* v) { v[threadIdx.x] = threadIdx.x; }
