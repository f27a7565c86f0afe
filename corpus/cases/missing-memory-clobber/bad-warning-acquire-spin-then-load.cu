// missing-memory-clobber (warning): the twin of `bad-info-acquire-spin-then-stores.cu` that
// reads data after the spin loop: the compiler may still move a load above a loop (and a
// counted loop's end is known), so the read of `data` may move above the acquire that
// publishes it.
#include <cstdint>

__global__ void wait_then_read(const uint32_t* ready, const float* data, float* out) {
  while (true) {
    uint32_t v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(ready));  // expect: missing-memory-clobber(warning), generic-address(info)
    if (v >= 7) break;
  }
  float x = data[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = x;
}
