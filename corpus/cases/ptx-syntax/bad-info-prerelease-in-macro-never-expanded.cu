// ptx-syntax (info): `setctarank` is pre-release syntax that ptxas rejects, but it sits in the
// body of a macro nothing expands: the preprocessor drops it, so ptxas never sees it. Info
// until something expands it (the twin `bad-prerelease-in-macro-expanded.cu` is an error).
// gpu: nvcc -arch=sm_90a compiles: the macro is never expanded (measured, nvcc 13.0, 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: compiles
#define REMOTE_ADDRESS(remote, addr, rank) \
  asm volatile("setctarank.shared.u32 %0, %1, %2;" : "=r"(remote) : "r"(addr), "r"(rank))  // expect: ptx-syntax(info)

__global__ void k(unsigned* v) { v[0] = v[1] + v[2]; }
