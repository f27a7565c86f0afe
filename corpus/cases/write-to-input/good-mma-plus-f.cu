// Correct: mma.sync accumulates into "+f" operands; A and B are read-only inputs.
#include <cstdint>

__device__ void mma_16816(float (&acc)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

__global__ void k(const uint32_t* a, const uint32_t* b, float* c) {
  unsigned lane = threadIdx.x & 31;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  uint32_t af[4] = {a[lane * 4], a[lane * 4 + 1], a[lane * 4 + 2], a[lane * 4 + 3]};
  uint32_t bf[2] = {b[lane * 2], b[lane * 2 + 1]};
  mma_16816(acc, af, bf);
  for (int i = 0; i < 4; ++i) c[lane * 4 + i] = acc[i];
}
