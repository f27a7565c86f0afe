// ptx-syntax (info): `setctarank` is pre-release syntax that ptxas rejects, but nothing calls
// this inline helper, and nvcc compiles an inline device function only where it is used:
// ptxas never sees it. Info until something calls it (the twin
// `bad-prerelease-in-called-inline-helper.cu` is an error).
// gpu: nvcc -arch=sm_90a compiles: the uncalled helper never reaches ptxas (measured 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: compiles
__forceinline__ __device__ unsigned remote_address(unsigned addr, unsigned rank) {
  unsigned remote;
  asm volatile("setctarank.shared.u32 %0, %1, %2;"  // expect: ptx-syntax(info)
               : "=r"(remote)
               : "r"(addr), "r"(rank));
  return remote;
}

__global__ void k(unsigned* v) { v[0] = v[1] + v[2]; }
