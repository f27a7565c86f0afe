// `wgmma` with scale-d 1 accumulates into `d` (D = A*B + D): its four `"=f"` accumulators
// are read before they are written, so the sum starts from whatever the registers held.
// One mistake, one finding for the four outputs, one fix making them all `+`.
#include <cstdint>

__device__ void wgmma_m64n8k16(float d[4], std::uint64_t a_desc, std::uint64_t b_desc) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 900)
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
      "{%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;"  // expect: output-read-before-write
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "l"(a_desc), "l"(b_desc));
#endif
}
