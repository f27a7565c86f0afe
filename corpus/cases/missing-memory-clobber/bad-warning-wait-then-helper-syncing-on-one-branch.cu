// missing-memory-clobber (warning): the twin of
// `bad-info-wait-then-helper-ending-in-syncwarp.cu` whose helper runs `__syncwarp()` only
// inside its `if`: on the other path its call is no barrier, and the load after it may move
// above the wait.
template <int kLanes>
__device__ __forceinline__ void reduce_into(float* shared_out, float v, int lane) {
  if (lane < kLanes) {
    shared_out[lane] = v;
    __syncwarp();
  }
}

__global__ void consume(const float* in, float* out) {
  __shared__ float partial[32];
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
  reduce_into<8>(partial, 1.0f, threadIdx.x % 32);
  out[threadIdx.x] = in[threadIdx.x] + partial[threadIdx.x % 8];
}
