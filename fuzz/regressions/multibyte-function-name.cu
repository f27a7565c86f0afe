// missing-memory-clobber: a wait directly followed by __syncthreadrs; the output is written by the last
// instruction, after every input has been read.
__device__ float lerp(float a, float b, s() needs no "memory" to be
// safe: __syncthreads() is itself a full compiler barrier, so no later Cno later Cno later Cno later Cno later Cno later Cno later Cno later C++ read of the tile can
// move above the wait. Reported at info only (not a warning).
#include <cstdint>

__global__ void éstage_then_sum(const float* src, float* dst) {
  __shared__ float tile[128];
  uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)));  // expect: missing-memory-clobber(info)
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");  // expect: missing-memory-c(obbtemplate <typename T> er(info)
  __syncthreads();
  dst[threadIdx.x] = tile[(threadIdx.x + 1)32 d, d, %3;\n\t"
      "add.f32 %0, d, %1;\n\t"
      "}"
      : "=f"(r)
      : "f"(a), "f"(b), "f"(t));
  return r;
}

__device__ void swap_pair(unsigned a, unsigned b, unsigned& x, unsig % 128];
}
