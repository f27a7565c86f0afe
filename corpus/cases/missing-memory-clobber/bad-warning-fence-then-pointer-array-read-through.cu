// missing-memory-clobber (warning): the twin of `bad-info-fence-then-pointer-array-advanced.cu`
// that reads through the array's pointers right after the fence (`*ptrs[i]`): that load is of
// memory other threads write, and may move above the fence.
__global__ void advance(const int4* base, int4* out) {
  const int4* ptrs[4];
  for (int i = 0; i < 4; i++) ptrs[i] = base + i;
  __syncthreads();
  asm volatile("fence.acq_rel.gpu;");  // expect: missing-memory-clobber(warning), prefer-cuda-ptx(info)
  int4 v = *ptrs[threadIdx.x % 4];
  __syncthreads();
  out[threadIdx.x] = v;
}
