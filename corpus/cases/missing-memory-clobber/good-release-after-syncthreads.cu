// The C++ stores the release publishes are ordered by the __syncthreads() before it (a full
// compiler barrier): the missing "memory" lets nothing move past the release here. Info.
__global__ void publish(float* data, unsigned* flag) {
  data[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("st.release.gpu.global.u32 [%0], 1;" ::"l"(__cvta_generic_to_global(flag))); // expect: missing-memory-clobber(info)
  }
}
