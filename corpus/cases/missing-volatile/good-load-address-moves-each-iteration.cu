// A load whose address changes every iteration (`src + j`, or a local computed from `j`) is
// no poll: the compiler cannot hoist it out of the loop, and its value is used. Its twin,
// one address loaded over and over, is `bad-hoisted-poll.cu`.
#include <cstdint>

__device__ void copy_words(unsigned* dst, const unsigned* src, int n) {
#pragma unroll 4
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    unsigned v;
    asm("ld.u32 %0, [%1];" : "=r"(v) : "l"(src + j));  // expect: missing-memory-clobber(info)
    const unsigned* next = src + j + 1;
    unsigned w;
    asm("ld.u32 %0, [%1];" : "=r"(w) : "l"(next));  // expect: missing-memory-clobber(info)
    dst[j] = v + w;
  }
}
