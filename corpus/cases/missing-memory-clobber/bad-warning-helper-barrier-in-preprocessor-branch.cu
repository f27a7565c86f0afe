// missing-memory-clobber (warning): `publish_flag` has a `__threadfence()` only in the branch
// for old targets, so its call is no compiler barrier for the targets that take the other
// branch: the store of `data` may still sink below the release after it.
__device__ void publish_flag(int* flag) {
#if __CUDA_ARCH__ >= 700
  asm volatile("st.release.gpu.global.b32 [%0], 1;" ::"l"(flag) : "memory");  // expect: generic-address(info)
#else
  __threadfence();
  asm volatile("st.volatile.global.b32 [%0], 1;" ::"l"(flag) : "memory");
#endif
}

__global__ void publish_twice(float* data, int* first, int* second) {
  data[threadIdx.x] = 1.0f;
  publish_flag(first);
  asm volatile("st.release.gpu.global.b32 [%0], 1;" ::"l"(second));  // expect: missing-memory-clobber(warning), generic-address(info)
}
