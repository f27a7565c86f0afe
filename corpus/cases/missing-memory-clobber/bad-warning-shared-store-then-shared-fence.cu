// missing-memory-clobber (warning): a shared store from C++, then `fence.proxy.async.shared::cta`
// to make it visible to the async proxy (a TMA store reads the tile next): without "memory" the
// compiler may sink the C++ store below the fence, and the TMA engine may read stale data.
#include <cstdint>

__global__ void stage_for_tma_store(const float* in, float* out) {
  __shared__ alignas(128) float tile[128];
  tile[threadIdx.x] = in[threadIdx.x] * 2.0f;
  asm volatile("fence.proxy.async.shared::cta;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 128];
}
