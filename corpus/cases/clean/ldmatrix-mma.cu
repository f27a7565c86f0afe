// One warp computes a 16x8 tile of C = A * B with ldmatrix and mma.sync (f16 inputs, f32
// accumulators): fragments as "r", accumulators as "+f", shared addresses as 32-bit "r".
#include <cstdint>
#include <cuda_fp16.h>

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr)
               : "memory");
#endif
}

__device__ __forceinline__ void ldmatrix_x2_trans(uint32_t (&r)[2], uint32_t addr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(addr)
               : "memory");
#endif
}

__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4],
                                             const uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n\t"
      "{%0, %1, %2, %3},\n\t"
      "{%4, %5, %6, %7},\n\t"
      "{%8, %9},\n\t"
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

__global__ void __launch_bounds__(32) hgemm_16x8(const __half* A, const __half* B, float* C, int K) {
  __shared__ __align__(16) __half As[16 * 16];
  __shared__ __align__(16) __half Bs[16 * 8];
  const int lane = threadIdx.x;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};

  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = lane; i < 16 * 16; i += 32) As[i] = A[(i / 16) * K + k0 + (i % 16)];
    for (int i = lane; i < 16 * 8; i += 32) Bs[i] = B[(k0 + i / 8) * 8 + (i % 8)];
    __syncthreads();
    uint32_t a[4];
    uint32_t b[2];
    ldmatrix_x4(a, smem_u32(&As[(lane % 16) * 16 + (lane / 16) * 8]));
    ldmatrix_x2_trans(b, smem_u32(&Bs[(lane % 16) * 8]));
    mma_m16n8k16(acc, a, b);
    __syncthreads();
  }

  const int row = lane / 4;
  const int col = (lane % 4) * 2;
  C[row * 8 + col] = acc[0];
  C[row * 8 + col + 1] = acc[1];
  C[(row + 8) * 8 + col] = acc[2];
  C[(row + 8) * 8 + col + 1] = acc[3];
}
