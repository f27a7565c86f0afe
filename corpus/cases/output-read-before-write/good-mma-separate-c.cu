// Correct: mma.sync with "=f" D outputs and separate "f" C inputs: nothing reads D.
#include <cstdint>

__device__ void mma_1688(float (&d)[4], const uint32_t (&a)[2], uint32_t b, const float (&c)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
      "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(b), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
#endif
}

__global__ void k(const uint32_t* a, const uint32_t* b, const float* c, float* d) {
  unsigned lane = threadIdx.x & 31;
  float out[4] = {0.f, 0.f, 0.f, 0.f};
  uint32_t af[2] = {a[2 * lane], a[2 * lane + 1]};
  float cf[4] = {c[4 * lane], c[4 * lane + 1], c[4 * lane + 2], c[4 * lane + 3]};
  mma_1688(out, af, b[lane], cf);
  for (int i = 0; i < 4; ++i) d[4 * lane + i] = out[i];
}
