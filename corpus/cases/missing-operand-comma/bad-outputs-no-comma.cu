// missing-operand-comma: the output list is missing its comma.
// gpu-launch: k<<<1, 32>>>(in: u64[32] = {0x100000002}, out: u32[32] = 0)
// gpu-bad: compiles
// gpu-bad: out[0] == 3
// gpu-good: out[0] == 3
// Built by clang too (a warning; info where only nvcc builds the file):
// portability: clang
#include <cstdint>

__device__ void split(uint64_t v, uint32_t& lo, uint32_t& hi) {
  asm("mov.b64 {%0, %1}, %2;"
      : "=r"(lo)
        "=r"(hi)  // expect: missing-operand-comma(warning)
      : "l"(v));
}

__global__ void k(const uint64_t* in, uint32_t* out) {
  uint32_t lo, hi;
  split(in[threadIdx.x], lo, hi);
  out[threadIdx.x] = lo + hi;
}
