// Correct: the sink '_' in elect.sync, vector operands, and an offset address.
// gpu-good: compiles
#include <cstdint>

__device__ unsigned is_elected() {
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{\n\t"
               ".reg .pred leader;\n\t"
               "elect.sync _|leader, %1;\n\t"
               "selp.u32 %0, 1, 0, leader;\n\t"
               "}"
               : "=r"(r)
               : "r"(0xffffffffu));
#endif
  return r;
}

__device__ uint4 load4(const uint4* p) {
  uint4 v;
  asm volatile("ld.v4.u32 {%0, %1, %2, %3}, [%4+16];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p)
               : "memory");
  return v;
}

__global__ void k(unsigned* leaders, const uint4* in, uint4* out) {
  leaders[threadIdx.x] = is_elected();
  out[threadIdx.x] = load4(in + threadIdx.x);
}
