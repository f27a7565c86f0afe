// ptx-syntax: `setctarank` is pre-release syntax; the kernel calls the inline helper, so ptxas
// compiles it and rejects it (the twin `bad-info-prerelease-in-uncalled-inline-helper.cu`
// is never compiled).
// gpu: nvcc -arch=sm_90a fails: ptxas "Not a name of any known instruction: 'setctarank'"
// gpu-arch: sm_90a
// gpu-bad: ptxas "Not a name of any known instruction: 'setctarank'"
__forceinline__ __device__ unsigned remote_address(unsigned addr, unsigned rank) {
  unsigned remote;
  asm volatile("setctarank.shared.u32 %0, %1, %2;"  // expect: ptx-syntax(error)
               : "=r"(remote)
               : "r"(addr), "r"(rank));
  return remote;
}

__global__ void k(unsigned* v) { v[0] = remote_address(v[1], v[2]); }
