// missing-memory-clobber (warning): waiting on an mbarrier is what makes the data behind it
// visible; without "memory" C++ reads of that data may be moved above the wait.
#include <cstdint>

__device__ bool try_wait(const void* bar, uint32_t phase) {
  uint32_t done;
  asm volatile("{\n\t"  // expect: missing-memory-clobber(warning)
               ".reg .pred p;\n\t"
               "mbarrier.try_wait.parity.b64 p, [%1], %2;\n\t"
               "selp.u32 %0, 1, 0, p;\n\t"
               "}"
               : "=r"(done)
               : "l"(bar), "r"(phase));
  return done != 0;
}

__global__ void consume(const uint64_t* bar, const float* smem_data, float* out) {
  while (!try_wait(bar, 0)) {
  }
  out[threadIdx.x] = smem_data[threadIdx.x];
}
