// missing-memory-clobber (warning): the twin of `bad-info-wait-then-references-bound.cu` that
// copies instead of binding: `Storage s = *reinterpret_cast<Storage*>(smem);` loads the shared
// storage right after the wait, with no barrier between, so without "memory" the load may move
// above the wait.
#include <cstdint>

struct Storage {
  uint64_t bars[2];
  float tile[128];
};

__global__ void copy_then_sync(float* out) {
  extern __shared__ char smem[];
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
  Storage s = *reinterpret_cast<Storage*>(smem);
  __syncthreads();
  out[threadIdx.x] = s.tile[threadIdx.x % 128];
}
