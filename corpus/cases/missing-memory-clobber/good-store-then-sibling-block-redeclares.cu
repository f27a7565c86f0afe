// The asm's store goes through `dst_p` of the first block; the second block declares another
// `dst_p` and stores through it: a different variable, not a use of what the asm wrote. The
// twin below reads through the same `dst_p` after the asm: reported.
#include <cstdint>

__device__ void copy_words(void* dst, const void* src, size_t n, bool wide) {
  if (wide) {
    uint32_t* __restrict__ dst_p = (uint32_t*)dst;
    const uint32_t* src_p = (const uint32_t*)src;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) {
      asm volatile("st.volatile.u32 [%0], %1;" ::"l"(dst_p + i), "r"(src_p[i]));  // expect: missing-memory-clobber(info)
    }
  }
  if (!wide) {
    uint8_t* dst_p = (uint8_t*)dst;
    const uint8_t* src_p = (const uint8_t*)src;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x) dst_p[i] = src_p[i];
  }
}

__device__ unsigned store_then_read(unsigned* out, unsigned v) {
  unsigned* dst_p = out + threadIdx.x;
  asm volatile("st.volatile.u32 [%0], %1;" ::"l"(dst_p), "r"(v));  // expect: missing-memory-clobber(warning)
  return dst_p[0];
}
