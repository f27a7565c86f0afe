// ptx-syntax: `setctarank` is pre-release syntax; the PTX ISA maps a shared address to
// another CTA of the cluster with `mapa`.
// gpu: nvcc -arch=sm_90a fails: ptxas "Not a name of any known instruction: 'setctarank'" (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: ptxas "Not a name of any known instruction: 'setctarank'"
__global__ void k(unsigned* v) {
  unsigned remote;
  asm volatile("setctarank.shared.u32 %0, %1, %2;"  // expect: ptx-syntax
               : "=r"(remote)
               : "r"(v[0]), "r"(v[1]));
  v[2] = remote;
}
