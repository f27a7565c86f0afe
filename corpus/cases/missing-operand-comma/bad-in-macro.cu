// missing-operand-comma: inside a macro body; the finding is on the #define line holding the
// second operand.
// gpu-launch: k<<<1, 32>>>(out: u32[32] = 0)
// gpu-bad: compiles
// gpu-bad: out[2] == 131
// gpu-good: out[2] == 131
#define MAD_LO(r, a, b, c)                           \
  asm("mad.lo.u32 %0, %1, %2, %3;"                   \
      : "=r"(r)                                      \
      : "r"(a), "r"(b) "r"(c)) /* expect: missing-operand-comma */

__device__ unsigned index_of(unsigned row, unsigned ld, unsigned col) {
  unsigned r;
  MAD_LO(r, row, ld, col);
  return r;
}

__global__ void k(unsigned* out) {
  out[threadIdx.x] = index_of(threadIdx.x, 64u, 3u);
}
