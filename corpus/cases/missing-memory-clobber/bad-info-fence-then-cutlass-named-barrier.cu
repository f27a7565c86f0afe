// missing-memory-clobber (info): the consumers write global memory, fence it for the async
// proxy, and arrive on a CUTLASS named barrier. `cutlass::arch::NamedBarrier::arrive` and
// `::sync` run `bar.arrive` / `bar.sync` with a "memory" clobber (CUTLASS's
// `cutlass/arch/barrier.h`), so they are compiler barriers: the store before the sync and the
// load after the arrive cannot cross the fence, and "memory" on it would order nothing more.
#include <cutlass/arch/barrier.h>

__global__ void append_then_signal(float* kv_new, const float* scale, float* out) {
  kv_new[threadIdx.x] = 1.0f;
  cutlass::arch::NamedBarrier::sync(256, 2);
  asm volatile("fence.proxy.async.global;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  cutlass::arch::NamedBarrier::arrive(384, 3);
  out[threadIdx.x] = scale[blockIdx.x];
}
