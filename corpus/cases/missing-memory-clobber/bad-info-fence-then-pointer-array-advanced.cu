// missing-memory-clobber (info): `ptrs` is a local array of pointers: advancing its elements
// (`ptrs[i] += 8`) changes the thread's own registers, no memory another thread sees, so no
// C++ access the fence orders is beside it.
__global__ void advance(const int4* base, int4* out) {
  const int4* ptrs[4];
  for (int i = 0; i < 4; i++) ptrs[i] = base + i;
  __syncthreads();
  asm volatile("fence.acq_rel.gpu;");  // expect: missing-memory-clobber(info), prefer-cuda-ptx(info)
  for (int i = 0; i < 4; i++) ptrs[i] += 8;
  __syncthreads();
  out[threadIdx.x] = *ptrs[threadIdx.x % 4];
}
