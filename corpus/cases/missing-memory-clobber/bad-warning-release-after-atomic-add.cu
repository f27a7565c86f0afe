// missing-memory-clobber (warning): `&hist[i]` is only an address, but it goes to atomicAdd,
// which writes there: the release that publishes the histogram must stay after it.
__global__ void publish_histogram(int* hist, int* ready, const int* keys) {
  atomicAdd(&hist[keys[threadIdx.x]], 1);
  if (threadIdx.x == 0) {
    asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(ready), "r"(1));  // expect: missing-memory-clobber(warning), generic-address(info)
  }
}
