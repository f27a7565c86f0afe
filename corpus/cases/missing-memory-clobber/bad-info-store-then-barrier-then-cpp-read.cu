// missing-memory-clobber (info): the asm writes `tile` inside a loop, and the C++ reads `tile`
// only after `__syncthreads()`, which runs on every path from the store to the read. The
// barrier is a full compiler barrier: the volatile store stays above it and the read below it,
// so "memory" would order nothing more here.
#include <cstdint>

__global__ void quantise_then_copy(const float* in, uint32_t* out) {
  __shared__ uint32_t tile[256];
  for (int i = 0; i < 4; ++i) {
    uint32_t bits = __float_as_uint(in[threadIdx.x * 4 + i]);
    asm volatile("st.shared.b32 [%0], %1;"  // expect: missing-memory-clobber(info)
                 :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[0])) + 4 * i), "r"(bits));
  }
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = tile[threadIdx.x % 4];
}
