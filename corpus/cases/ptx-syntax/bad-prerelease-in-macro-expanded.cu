// ptx-syntax: the twin of `bad-info-prerelease-in-macro-never-expanded.cu` whose kernel
// expands the macro: ptxas gets `setctarank` and rejects the file.
// gpu: nvcc -arch=sm_90a fails: ptxas "Not a name of any known instruction: 'setctarank'" (measured, nvcc 13.0, 2026-12-05)
// gpu-arch: sm_90a
// gpu-bad: ptxas "Not a name of any known instruction"
#define REMOTE_ADDRESS(remote, addr, rank) \
  asm volatile("setctarank.shared.u32 %0, %1, %2;" : "=r"(remote) : "r"(addr), "r"(rank))  // expect: ptx-syntax(error)

__global__ void k(unsigned* v) {
  unsigned remote;
  REMOTE_ADDRESS(remote, v[1], v[2]);
  v[0] = remote;
}
