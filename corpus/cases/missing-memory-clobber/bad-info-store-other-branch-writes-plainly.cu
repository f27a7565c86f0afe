// missing-memory-clobber: a store helper picks, at compile time, a volatile asm store or a plain
// C++ store of the same element. The plain store is on the other branch of the `if constexpr`:
// it never runs on a path through the asm, so nothing the C++ does with `dst` is ordered
// against the asm's write. Info only (a store helper), not a warning.
#include <cstdint>

template <bool AsVolatile>
__device__ void store_row(float (&row)[4][4], const float (&src)[4], unsigned quad) {
  for (int i = 0; i < 4; ++i) {
    auto& dst = row[i][quad % 4];
    if constexpr (AsVolatile) {
      asm volatile("st.volatile.shared.f32 [%0], %1;" :: "l"(__cvta_generic_to_shared(&dst)), "f"(src[i]));  // expect: missing-memory-clobber(info)
    } else {
      dst = src[i];
    }
  }
}

__global__ void k(const float* in) {
  __shared__ float rows[4][4];
  float src[4] = {in[0], in[1], in[2], in[3]};
  store_row<true>(rows, src, threadIdx.x);
  store_row<false>(rows, src, threadIdx.x);
}
