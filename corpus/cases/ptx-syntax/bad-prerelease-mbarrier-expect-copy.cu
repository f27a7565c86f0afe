// ptx-syntax: `mbarrier.arrive.expect_copy` is pre-release syntax; the PTX ISA names it
// `mbarrier.arrive.expect_tx`.
// gpu: nvcc -arch=sm_90a fails: ptxas "Not a name of any known instruction: 'mbarrier.arrive.expect_copy'" (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: ptxas "Not a name of any known instruction: 'mbarrier.arrive.expect_copy'"
__global__ void k(unsigned* bytes) {
  __shared__ unsigned long long bar;
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  asm volatile("mbarrier.arrive.expect_copy.shared.b64 _, [%0], %1;"  // expect: ptx-syntax
               :
               : "r"(addr), "r"(bytes[0])
               : "memory");
}
