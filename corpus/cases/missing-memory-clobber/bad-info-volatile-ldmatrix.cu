// missing-memory-clobber (info): ldmatrix reads shared memory through its address operand.
#include <cstdint>

__device__ void load_frag(uint32_t a, uint32_t (&frag)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"  // expect: missing-memory-clobber(info)
               : "=r"(frag[0]), "=r"(frag[1]), "=r"(frag[2]), "=r"(frag[3])
               : "r"(a));
#endif
}

__global__ void k(const uint4* in, uint4* out) {
  __shared__ uint4 tile[32 * 4];
  for (int i = threadIdx.x; i < 128; i += 32) tile[i] = in[i];
  __syncthreads();
  uint32_t f[4];
  load_frag(static_cast<uint32_t>(__cvta_generic_to_shared(&tile[threadIdx.x * 4])), f);
  out[threadIdx.x] = make_uint4(f[0], f[1], f[2], f[3]);
}
