// Front end: the same dispatch with NV_IF_ELSE_TARGET-style macros this file defines itself (no
// <nv/target>): the asm inside the macro argument is still found, and its branch is the device one.
#include <cstdint>

#define NV_STRIP_PAREN(...) __VA_ARGS__
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define NV_PROVIDES_SM_90 1
#define NV_IF_ELSE_TARGET(cond, then_branch, else_branch) NV_STRIP_PAREN then_branch
#else
#define NV_PROVIDES_SM_90 0
#define NV_IF_ELSE_TARGET(cond, then_branch, else_branch) NV_STRIP_PAREN else_branch
#endif

__device__ uint32_t elected_or_lane0(uint32_t lane) {
  uint32_t r = lane == 0;
  NV_IF_ELSE_TARGET(NV_PROVIDES_SM_90,
                    (asm volatile("{\n\t"
                                  ".reg .pred leader;\n\t"
                                  "elect.sync _|leader, %1;\n\t"
                                  "selp.u32 %0, 1, 0, leader;\n\t"
                                  "}"
                                  : "=r"(r)
                                  : "r"(0xffffffffu), "r"(lane));),  // expect: unused-operand(info)
                    (r = lane == 0;));
  return r;
}

__global__ void k(uint32_t* v) {
  v[threadIdx.x] = elected_or_lane0(threadIdx.x & 31);
}
