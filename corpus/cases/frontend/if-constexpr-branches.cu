// Front end: asm in both branches of `if constexpr`.
#include <cstdint>

template <bool Wide>
__device__ uint64_t combine(uint32_t a, uint32_t b) {
  if constexpr (Wide) {
    uint64_t r;
    asm("mul.wide.u32 %0, %1, %n2;" : "=l"(r) : "r"(a), "r"(b));  // expect: unsupported-modifier
    return r;
  } else {
    uint32_t r;
    asm("mul.lo.u32 %0, %1, %3;" : "=r"(r) : "r"(a), "r"(b));  // expect: operand-index
    return r;
  }
}

__global__ void k(const uint32_t* in, uint64_t* out) {
  out[threadIdx.x] = combine<true>(in[threadIdx.x], 3u) + combine<false>(in[threadIdx.x], 5u);
}
