// ptx-syntax: there is no `barrier.cluster.sync`; the PTX ISA has `barrier.cluster.arrive`
// followed by `barrier.cluster.wait`.
// gpu: nvcc -arch=sm_90a fails: ptxas "Not a name of any known instruction: 'barrier.cluster'" (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: ptxas "Not a name of any known instruction: 'barrier.cluster'"
__global__ void k(unsigned* out) {
  out[0] = 1;
  asm volatile("barrier.cluster.sync;" ::: "memory");  // expect: ptx-syntax
  out[1] = 1;
}
