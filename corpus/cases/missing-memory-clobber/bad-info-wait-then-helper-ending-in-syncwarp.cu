// missing-memory-clobber (info): after the wait, the warp calls a template helper whose body
// ends in `__syncwarp()` at its top level, after an `if` and a `#pragma unroll` loop: the
// barrier runs on every path through the helper, so the helper's call is a compiler barrier and
// the load after it cannot move above the wait.
#include <cstdint>

template <int kLanes>
__device__ __forceinline__ void reduce_into(float* shared_out, float v, int lane) {
  if (lane < kLanes) {
#pragma unroll
    for (int i = 0; i < 2; ++i) v += __shfl_xor_sync(0xffffffffu, v, 1 << i);
    shared_out[lane] = v;
  }
  __syncwarp();
}

__global__ void consume(const float* in, float* out) {
  __shared__ float partial[32];
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(info), prefer-intrinsic(info)
  reduce_into<8>(partial, 1.0f, threadIdx.x % 32);
  out[threadIdx.x] = in[threadIdx.x] + partial[threadIdx.x % 8];
}
