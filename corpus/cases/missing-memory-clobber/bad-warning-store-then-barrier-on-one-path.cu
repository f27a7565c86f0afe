// missing-memory-clobber (warning): the asm writes `tile`, and the C++ reads `tile` after an `if`
// whose body holds the only `__syncthreads()`: when `sync` is false nothing orders the read
// after the store, and only "memory" promises that order.
#include <cstdint>

__global__ void store_then_maybe_sync(uint32_t* out, bool sync) {
  __shared__ uint32_t tile[32];
  asm volatile("st.shared.b32 [%0], %1;"  // expect: missing-memory-clobber(warning)
               :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[0])) + 4 * (threadIdx.x % 32)), "r"(threadIdx.x));
  if (sync) {
    __syncthreads();
  }
  out[threadIdx.x] = tile[threadIdx.x % 32];
}
