// missing-memory-clobber (warning): the helper's only call is in a macro's body, which the
// kernel expands before the load of the producer's output: a call in a `#define` is code.
__device__ __forceinline__ void wait_for_producer() {
  asm volatile("griddepcontrol.wait;");  // expect: missing-memory-clobber(warning), prefer-intrinsic(info)
}
#define WAIT_AND_LOAD(dst, src) do { wait_for_producer(); dst = src; } while (0)

__global__ void consume(const float* produced, float* out) {
  float v;
  WAIT_AND_LOAD(v, produced[threadIdx.x]);
  out[threadIdx.x] = v;
}
