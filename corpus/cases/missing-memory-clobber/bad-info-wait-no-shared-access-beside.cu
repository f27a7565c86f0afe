// missing-memory-clobber (info): a cp.async wait without "memory", its tile read by ldmatrix asm
// volatile; the C++ after it writes only global memory through a kernel parameter (and declares a
// local array, the thread's own memory). The finding says why it is info: no C++ access of
// shared memory is beside the wait.
#include <cstdint>

__global__ void frag_out(const uint4* __restrict__ src, uint4* out) {
  __shared__ __align__(16) uint4 tile[32];
  const uint32_t slot = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(slot), "l"(__cvta_generic_to_global(src + threadIdx.x)) : "memory");
  asm volatile("cp.async.wait_all;");  // expect: missing-memory-clobber(info)
  out[blockDim.x + threadIdx.x] = make_uint4(0, 0, 0, 0);
  uint32_t f[4];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(f[0]), "=r"(f[1]), "=r"(f[2]), "=r"(f[3]) : "r"(slot) : "memory");
  out[threadIdx.x] = make_uint4(f[0], f[1], f[2], f[3]);
}
