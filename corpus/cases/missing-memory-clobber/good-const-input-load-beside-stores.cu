// A plain load of input data through a `const T* __restrict__` pointer: nothing writes what it
// reads while the function runs, so there is no C++ store the load could be moved across.
// Info: only the contract. (`const` alone would not say so: bad-warning-cache-hinted-load-not-
// volatile.cu writes the buffer through another pointer.)
#include <cstdint>

__device__ uint2 load_pair(const uint32_t* __restrict__ p) {
  uint2 v;
  asm("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(__cvta_generic_to_global(p))); // expect: missing-memory-clobber(info)
  return v;
}

__global__ void copy_pairs(const uint32_t* in, uint32_t* out) {
  uint2 v = load_pair(in + 2 * threadIdx.x);
  out[2 * threadIdx.x] = v.x;
  out[2 * threadIdx.x + 1] = v.y;
}
