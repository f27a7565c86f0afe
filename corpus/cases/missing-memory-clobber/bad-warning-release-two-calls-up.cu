// missing-memory-clobber (warning): the release reduction sits two calls below the C++ store
// it publishes (kernel -> sync() -> arrive_and_wait()), with no compiler barrier between: once
// inlined, the store of `partial[block]` may sink below the release.
struct GroupBarrier {
  int* counter;

  __device__ void arrive_and_wait(int expected) {
    asm volatile("red.release.gpu.global.add.s32 [%0], 1;" ::"l"(counter));  // expect: missing-memory-clobber(warning), generic-address(info)
    int seen = 0;
    while (seen != expected) {
      asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(seen) : "l"(counter) : "memory");  // expect: generic-address(info)
    }
  }

  __device__ void sync(int expected) {
    if (threadIdx.x == 0) {
      arrive_and_wait(expected);
    }
    __syncthreads();
  }
};

__global__ void publish_partials(float* partial, GroupBarrier group, float value) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = value;
  }
  group.sync(gridDim.x);
}
